import Testing

@testable import NCAASource

/// The team token a play text names, read from its bytes (`PlayTeamToken`), as the texts of the
/// real pages write it.
@Suite struct PlayTeamTokenTests {
  @Test func eachFormNamesItsTeam() {
    let cases: [(String, String?)] = [
      ("Clear attempt by COR good.", "COR"), ("Clear attempt by STONY BR failed.", "STONY BR"),
      ("Clear attempt by COR.", nil), ("Timeout by JHU.", "JHU"), ("  Timeout by JHU  ", "JHU"),
      ("Smith, J at goalie for COR.", "COR"), ("Ground ball pickup by COR.", "COR"),
      ("Ground ball pickup by COR Smith, Jack.", "COR"), ("Turnover by UVA.", "UVA"),
      ("GOAL by AF Meyers, Connor", "AF"), ("Shot by TX A&M Doe, J, WIDE.", "TX"), ("Shot by A&M Doe", "A&M"),
      ("Shot by Smith, John", nil), ("Shot by 123", nil), ("Shot by ABCDEFGHI Doe", nil), ("Shot by  COR  x", "COR"),
      ("Shot by COR, x", nil), ("Penalty by ÉCOLE Doe", "ÉCOLE"), ("Penalty by Éc Doe", nil), ("Faceoff won", nil),
      ("", nil), ("by COR", nil),
    ]
    for (text, expected) in cases { #expect(PlayTeamToken.token(in: text) == expected, "\(text)") }
  }
}
