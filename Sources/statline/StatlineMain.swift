import StatlineApp

#if canImport(Glibc)
  import Glibc
#endif

/// The `statline` executable: the root command (`StatlineCommand.swift`) composes the command
/// modules; tests run this very binary (`CommandRunner`).
@main
enum StatlineMain {
  static func main() async {
    keepFreedMemoryForReuse()
    await StatlineCommand.main()
  }

  /// Every poll allocates a page's working set and frees it. glibc gives the freed top of its
  /// heap back to the system past 128 KiB by default, so the next large page faults its memory
  /// in again (9 % of reading a 121 KB play-by-play went to page faults). Keeping up to 2 MiB
  /// free per heap costs at most that much resident memory per allocator arena and reads
  /// that page 14 % faster (`statline bench parser`, docs/benchmarks.md).
  /// (`mallopt` is asked for by name: Swift's Glibc module does not bring in `malloc.h`.)
  static func keepFreedMemoryForReuse() {
    #if canImport(Glibc)
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in malloc.h
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      _ = unsafeBitCast(symbol, to: Mallopt.self)(trimThreshold, 2 << 20)
    #endif
  }
}
