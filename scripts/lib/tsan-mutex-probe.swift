// A ThreadSanitizer probe for scripts/sanitize: eight threads update one value only inside
// Synchronization.Mutex.withLock. There is no race. If ThreadSanitizer still reports one, it does
// not see this toolchain's Mutex (futex-based, its lock inlined into the caller), and every
// report whose access sits inside a withLock closure is that false positive.
import Dispatch
import Synchronization

final class Box: Sendable { let value = Mutex<[Int: Int]>([:]) }
let box = Box()
DispatchQueue.concurrentPerform(iterations: 8) { i in
  for j in 0..<2000 { box.value.withLock { $0[j % 7, default: 0] += i } }
}
print(box.value.withLock { $0.count })
