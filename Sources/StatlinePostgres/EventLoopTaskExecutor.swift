import NIOCore

/// Runs a task's jobs on a NIO event loop: the store's queries then start, and their answers
/// resume, on the thread that owns the connections, instead of hopping between the event loop
/// and the cooperative pool at every round trip (most of a query's CPU was those switches).
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
  let loop: any EventLoop

  init(_ loop: any EventLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
