import Foundation
import StatlineCore
import Testing

/// A sniffer looks for words; the format must fit first, so a JSON file that mentions a page's
/// words (FACTS.json names the StatBroadcast calendar) is not taken for the page.
@Suite struct FormatSniffingTests {
  static func page(_ text: String) -> Page { Page(body: Data(text.utf8)) }

  @Test func eachFormatAdmitsOnlyBodiesThatCanBeIt() {
    #expect(DocumentFormat.html.admits(Self.page("\u{FEFF}  \n<!DOCTYPE html><html>")))
    #expect(DocumentFormat.xml.admits(Self.page("<?xml version=\"1.0\"?><lcgame/>")))
    #expect(DocumentFormat.json.admits(Self.page(" [1]")) && DocumentFormat.json.admits(Self.page("{\"a\":1}")))
    #expect(!DocumentFormat.html.admits(Self.page("[{\"notes\": \"<html> eventCalendar StatBroadcast\"}]")))
    #expect(!DocumentFormat.json.admits(Self.page("<html>{}</html>")))
    #expect(!DocumentFormat.xml.admits(Self.page("   ")))
  }

  @Test func aSnifferIsNotAskedAboutAPageOfAnotherFormat() {
    let entry = entry("calendar", sniff: "eventCalendar")
    #expect(entry.sniffs(Self.page("<div id=\"eventCalendar\">")))
    #expect(!entry.sniffs(Self.page("[{\"file\": \"events-schedule-msu.html\", \"notes\": \"eventCalendar\"}]")))
  }
}
