import Testing

@testable import StatlineCanonical

@Suite struct TeamNameTests {
  @Test(arguments: [
    ("St. John's (NY)", "saint johns ny"), ("ST JOHNS (NY)", "saint johns ny"), ("Michigan St.", "michigan state"),
    ("William & Mary", "william and mary"), ("Boston U.", "boston university"),
    ("Saint Mary\u{2019}s (CA)", "saint marys ca"),
    ("  North   Carolina ", "north carolina"), ("Queens (NC)", "queens nc"), ("Army West Point", "army west point"),
    ("UMass Lowell", "umass lowell"), ("Bryant", "bryant"), ("Méndez", "mendez"),
  ])
  func keysFoldCasePunctuationAndSaintOrState(_ name: String, _ key: String) {
    #expect(TeamName.key(name) == key)
  }

  @Test func theUnqualifiedKeyDropsParenthesisedQualifiersOnly() {
    #expect(TeamName.unqualifiedKey("St. Joseph's (PA)") == "saint josephs")
    #expect(TeamName.unqualifiedKey("Miami (FL)") == "miami")
    #expect(TeamName.unqualifiedKey("North Carolina") == nil, "no qualifier: the full key is the only one")
  }

  @Test func slugsAreNcaaComsForm() {
    #expect(TeamName.slug("Air Force") == "air-force")
    #expect(TeamName.slug("Johns Hopkins") == "johns-hopkins")
    #expect(TeamName.slug("St. John's (NY)") == "st-johns-ny")
  }

  @Test func stIsSaintOnlyLeadingAndStateOnlyTrailing() {
    #expect(TeamName.key("St. Francis St.") == "saint francis state")
    #expect(TeamName.key("St") == "saint", "one word leads: Saint")
  }
}
