import StatlineCore
import StatlineTesting
import Testing

@Suite struct StoreContractTests {
  @Test func theMemoryStorePassesTheContract() async throws {
    try await StoreContract.check { MemoryStore() }
    try await ScheduleStoreContract.check { MemoryStore() }
    try await EventLogContract.check { MemoryStore() }
    try await CanonicalStoreContract.check { MemoryStore() }
    try await StoreReaderContract.check { MemoryStore() }
    try await RankingStoreContract.check { MemoryStore() }
    try await LogoStoreContract.check { MemoryStore() }
    try await DeviceRegistryContract.check { MemoryDeviceRegistry() }
    try await PushOutboxContract.check { MemoryDeviceRegistry() }
  }

  @Test func recordsOfABatchHaveKindsAndIds() {
    let batch = Batch(
      teams: [Team(id: "t:1", name: "A")],
      plays: [Play(gameId: "g:1", sequence: 7, type: .goal, text: "GOAL")])
    let records = StoreRecord.records(of: batch)
    #expect(records.map(\.kind) == [.team, .play])
    #expect(records.map(\.id) == ["t:1", "g:1#7"])
  }
}
