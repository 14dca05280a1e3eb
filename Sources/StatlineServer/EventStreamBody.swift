import Hummingbird
import NIOCore
import ServiceLifecycle
import StatlineCore

/// One client's `/v1/events/stream`: the events after its start, read from the store, then the
/// hub's live feed, each event once and in order (a gap between the two is read from the store).
/// Ends on graceful shutdown; a client that cannot keep up is disconnected.
struct EventStreamBody: Sendable {
  let reader: any StoreReader
  let hub: EventHub
  let start: Int64
  let channel: any Channel
  /// Set when the stream replays the past (`EventReplays`, with its ticket): its place is
  /// claimed when the body starts and given back when the replay is done; its pages are read in
  /// the replays' lane and written under a stall timeout.
  let replay: (replays: EventReplays, ticket: Int)?

  /// Events read from the store at once while catching up.
  static let page = 500

  var body: ResponseBody {
    ResponseBody { writer in
      let channel = channel
      // The replay's place is the body's from its first moment to the end of the replay.
      var replaying = replay.map { replay in
        replay.replays.claim(replay.ticket)
        return replay.replays
      }
      defer { replaying?.leave() }
      let subscription = await hub.subscribe { channel.close(promise: nil) }
      var cursor = start
      do {
        try await writer.write(ByteBuffer(string: "retry: 3000\n: connected to Statline's event stream\n\n"))
        if let replays = replaying {
          cursor = try await replay(from: cursor, replays: replays, writer: &writer)
          replays.leave()
          replaying = nil
        }
        cursor = try await catchUp(from: cursor, through: nil, writer: &writer)
        for await item in subscription.items.cancelOnGracefulShutdown() {
          switch item {
          case .heartbeat:
            try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
          case .event(let event):
            guard event.sequence > cursor else { continue }
            if event.sequence > cursor + 1 {
              cursor = try await catchUp(from: cursor, through: event.sequence - 1, writer: &writer)
            }
            try await writer.write(ByteBuffer(bytes: ReadAPI.frame(event)))
            cursor = event.sequence
          }
        }
      } catch {
        await hub.unsubscribe(subscription.id)
        throw error
      }
      await hub.unsubscribe(subscription.id)
      // Too slow: the hub closed the connection, and what the client had not read went with
      // it; it reconnects with Last-Event-ID and reads the rest from the store.
      if subscription.overflowed { return }
      try await writer.finish(nil)
    }
  }

  /// Writes the stored events after `cursor` a page at a time, each page read in the replays'
  /// lane and written as one buffer under the stall timeout, until a page is not full; returns
  /// the new cursor.
  private func replay(from cursor: Int64, replays: EventReplays, writer: inout any ResponseBodyWriter) async throws
    -> Int64
  {
    var cursor = cursor
    let reader = reader
    while true {
      let since = cursor
      let events = try await replays.read { try await reader.events(since: since, limit: Self.page) }
      guard let last = events.last else { return cursor }
      var buffer = ByteBuffer()
      for event in events { buffer.writeBytes(ReadAPI.frame(event)) }
      try await replays.write(buffer, to: &writer, channel: channel)
      cursor = last.sequence
      if events.count < Self.page { return cursor }
    }
  }

  /// Writes the stored events after `cursor` (up to `last`, or all); returns the new cursor.
  private func catchUp(from cursor: Int64, through last: Int64?, writer: inout any ResponseBodyWriter) async throws
    -> Int64
  {
    var cursor = cursor
    while true {
      let events = try await reader.events(since: cursor, limit: Self.page)
      for event in events {
        if let last, event.sequence > last { return cursor }
        try await writer.write(ByteBuffer(bytes: ReadAPI.frame(event)))
        cursor = event.sequence
      }
      if events.count < Self.page { return cursor }
    }
  }
}
