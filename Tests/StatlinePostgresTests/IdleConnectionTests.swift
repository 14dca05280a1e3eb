import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A connection the network dropped without a word while it sat idle (a NAT forgetting the
/// flow) is found out before a statement is sent on it (issue 33): the write neither fails nor
/// hangs. The network is a loopback relay that, told to (`silence` on its stdin), goes silent on
/// every flow it carries while still relaying new ones.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct IdleConnectionTests {
  static let relay = """
    import socket, threading, sys, os
    listener = socket.socket(); listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0)); listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    flows = []
    def pipe(source, target, flow):
        try:
            while True:
                data = source.recv(65536)
                if not data: break
                if not flow["silent"]: target.sendall(data)
        except OSError: pass
        if not flow["silent"]:
            try: target.shutdown(socket.SHUT_WR)
            except OSError: pass
    def commands():
        # "silence": every flow carried so far goes silent; the end of stdin: the test is over.
        while True:
            line = sys.stdin.readline()
            if not line: os._exit(0)
            if line.strip() == "silence":
                for flow in flows: flow["silent"] = True
                print("silenced", len(flows), flush=True)
    threading.Thread(target=commands, daemon=True).start()
    while True:
        client, _ = listener.accept()
        upstream = socket.create_connection((sys.argv[1], int(sys.argv[2])))
        flow = {"silent": False}; flows.append(flow)
        threading.Thread(target=pipe, args=(client, upstream, flow), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client, flow), daemon=True).start()
    """

  @Test func aSilentlyDroppedIdleConnectionIsReplacedBeforeTheWrite() async throws {
    var location = try TestPostgres.freshLocation()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.relay, location.host, String(location.port)]
    let (output, input) = (Pipe(), Pipe())
    process.standardOutput = output
    process.standardInput = input
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Closing its stdin ends the relay, however the test ends.
    defer { try? input.fileHandleForWriting.close() }
    func readLine() -> String {
      var line = Data()
      while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
        line.append(first)
      }
      return String(decoding: line, as: UTF8.self)
    }
    let port = readLine()
    location.port = try #require(Int(port), "the relay's port: \(port)")
    // Every used connection is checked (no idle time to wait for), with a short deadline.
    let store = try await PostgresStore.open(
      location, maxConnections: 4, idleCheck: IdleCheck(after: .zero, deadline: .milliseconds(500)))
    func check() async throws {
      let game = Game(
        id: "g:1", sport: .lacrosseMen, status: .live, period: 1,
        away: TeamLine(team: TeamRef(id: "t:a", name: "Army"), score: 0),
        home: TeamLine(team: TeamRef(id: "t:h", name: "Navy"), score: 0))
      _ = try await store.write(Batch(games: [game]))
      // The network forgets every flow it carries, without closing one.
      input.fileHandleForWriting.write(Data("silence\n".utf8))
      let silenced = readLine()
      #expect(silenced.hasPrefix("silenced ") && silenced != "silenced 0", "\(silenced)")
      var scored = game
      scored.away.score = 1
      let write = try await store.write(Batch(games: [scored]))
      #expect(write.written == 2 && write.events[.goal] == 1, "the write went through on a new connection")
      #expect(try await store.game(id: "g:1")?.away.score == 1)
      #expect(store.droppedConnections.withLock { $0 } >= 1, "an idle connection was found dropped and replaced")
      // And the writes after it go through as well (a dropped connection is never used again).
      let dropped = store.droppedConnections.withLock { $0 }
      for goals in 2...4 {
        scored.away.score = goals
        #expect(try await store.write(Batch(games: [scored])).written == 2)
      }
      #expect(store.droppedConnections.withLock { $0 } == dropped)
    }
    do {
      try await check()
    } catch {
      try? await store.dropSchema()
      await store.close()
      throw error
    }
    try? await store.dropSchema()
    await store.close()
  }
}
