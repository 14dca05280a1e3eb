import Foundation
import StatlineCore
import StatlineTesting
import Testing

@Suite struct SportProfileTests {
  /// The contract's sports (architecture.md#the-contract), each with one profile, and `volleyball` and `soccer` (a
  /// file that
  /// does not say men's or women's: issue 30 asks to say what the game is rather than guess).
  @Test func everySportOfTheContractHasAProfile() {
    let contract = [
      "lacrosse-men", "lacrosse-women", "basketball-men", "basketball-women", "baseball", "softball", "football",
      "soccer-men", "soccer-women", "soccer", "field-hockey", "volleyball-women", "volleyball-men", "volleyball",
      "ice-hockey-men", "ice-hockey-women",
    ]
    #expect(SportProfile.all.map(\.sport.rawValue).sorted() == contract.sorted())
    #expect(Sport.unknown.profile == nil && Sport("rugby-men").profile == nil)
  }

  @Test(arguments: [
    (Sport.lacrosseMen, 5, "OT"), (.basketballMen, 2, "2nd Half"), (.basketballMen, 4, "2OT"),
    (.basketballWomen, 3, "3rd Quarter"), (.baseball, 10, "10th Inning"), (.softball, 7, "7th Inning"),
    (.volleyballWomen, 5, "Set 5"), (.iceHockeyMen, 3, "3rd Period"), (.iceHockeyMen, 4, "OT"),
    (.soccerWomen, 1, "1st Half"), (.fieldHockey, 4, "4th Quarter"), (.football, 11, "7OT"),
  ])
  func periodsAreNamedAsTheSportNamesThem(_ sport: Sport, _ period: Int, _ label: String) throws {
    #expect(try #require(sport.profile).periodLabel(period) == label)
  }

  @Test func regulationAndScoringFollowTheSport() throws {
    #expect(Sport.basketballMen.regulationPeriods == 2 && Sport.basketballWomen.regulationPeriods == 4)
    #expect(Sport.baseball.regulationPeriods == 9 && Sport.softball.regulationPeriods == 7)
    #expect(Sport.lacrosseMen.regulationPeriods == 4 && Sport("rugby-men").regulationPeriods == 4)
    #expect(
      SportProfile.all.filter(\.countsGoals).map(\.sport.rawValue).sorted() == [
        "field-hockey", "ice-hockey-men", "ice-hockey-women", "lacrosse-men", "lacrosse-women", "soccer",
        "soccer-men", "soccer-women",
      ])
    #expect(try #require(Sport.volleyballMen.profile).scoringKey == nil, "sets won, not a box-score column")
    #expect(try #require(Sport.lacrosseWomen.profile).statKeys == StatKey.lacrosse, "lacrosse's contract is unchanged")
    #expect(
      SportProfile.ordinal(11) == "11th" && SportProfile.ordinal(22) == "22nd" && SportProfile.ordinal(13) == "13th")
  }

  @Test func keysAreLowerCamelUniqueAndHoldTheScoringKey() {
    for profile in SportProfile.all {
      #expect(Set(profile.statKeys).count == profile.statKeys.count, "\(profile.sport)")
      for key in profile.statKeys {
        #expect(key.first?.isLowercase == true && key.allSatisfy { $0.isLetter }, "\(profile.sport): \(key)")
      }
      if let scoring = profile.scoringKey { #expect(profile.statKeys.contains(scoring), "\(profile.sport)") }
    }
  }

  /// The sports page documents every sport and every key (the project's list of keys per sport).
  @Test func theSportsPageListsEverySportAndKey() throws {
    let readme = try String(contentsOf: PackageRoot.file("docs/sports.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## Sports and their stat keys").dropFirst().first)
    let text = section.components(separatedBy: "\n## ").first ?? section
    for profile in SportProfile.all {
      #expect(text.contains("`\(profile.sport.rawValue)`"), "\(profile.sport)")
      for key in profile.statKeys { #expect(text.contains("`\(key)`"), "\(profile.sport): \(key)") }
    }
  }
}
