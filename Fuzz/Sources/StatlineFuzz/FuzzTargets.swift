import ESPNSource
import Foundation
import GenericHTMLSource
import NCAASource
import StatBroadcastSource
import StatlineCanonical
import StatlineCore
import StatlineHTML
import StatlinePush
import StatlineServer

/// The fuzz targets: one per parser entry of every plugin (`parser:ID`, the page's bytes run
/// through parse → normalize → validate with the parser's usual URL), and the pieces that
/// read text on their own: the CSS → XPath translator, the GenericHTML config reader, the
/// StatBroadcast web-service decoder and the lacrosse play grammar; and `html-stream`, Swift's
/// HTML tokenizer held to libxml2's events; `json-reader`, the JSON tape held to Foundation; and
/// `device-input`, the device API's body decoding (`DeviceInput.broken(by:)`); `fcm-answer` and
/// `fcm-service-account`, FCM's error decoding and the service-account reader (`FCMInvariants`).
///
/// Any outcome is fine but a crash, a hang or a leak: a thrown `StatlineError` is the parser
/// failing loudly, as it must on a page nobody wrote for it.
enum FuzzTargets {
  static let registry: SourceRegistry = {
    do {
      return try SourceRegistry(plugins: [
        GenericHTMLSource.plugin, StatBroadcastSource.plugin, NCAASource.plugin, ESPNSource.plugin,
      ])
    } catch {
      fatalError("the plugins did not register: \(error)")
    }
  }()

  /// Every target's name, for `statline-fuzz -help`-free listing (`STATLINE_FUZZ_TARGET=list`).
  static var names: [String] {
    registry.parsers.map { "parser:\($0.id)" } + [
      "css", "generic-config", "sb-decode", "play-grammar", "html-stream", "json-reader", "device-input",
      "fcm-answer", "fcm-service-account",
    ]
  }

  /// The team registry the device API resolves teams with, as `statline serve` seeds it.
  static let teams: TeamRegistry = {
    do {
      return try TeamRegistry.seeded(teamIds: registry.facts.teamIds)
    } catch {
      fatalError("the team registry did not seed: \(error)")
    }
  }()

  /// The target named by `STATLINE_FUZZ_TARGET`, with `STATLINE_FUZZ_URL` as the page's URL.
  static func named(_ name: String, url: String?) -> (@Sendable (Data) -> Void)? {
    if name.hasPrefix("parser:") {
      guard let entry = registry.parser(id: String(name.dropFirst("parser:".count))) else { return nil }
      return { data in
        _ = try? PagePipeline.run(Page(url: url, status: 200, headers: [:], body: data), with: entry)
      }
    }
    switch name {
    case "css":
      return { data in
        let selector = String(decoding: data, as: UTF8.self)
        guard let xpath = try? CSSSelector.xpath(for: selector) else { return }
        // A translated selector must run: libxml2 rejecting it would be the translator's bug.
        let document = try? Document.html(Data("<html><body><p class='a' id='b'>x</p></body></html>".utf8))
        do {
          _ = try document?.select(xpath: xpath)
        } catch {
          fatalError("the selector \(selector.debugDescription) became an XPath libxml2 rejects: \(xpath): \(error)")
        }
      }
    case "html-stream":
      return { data in HTMLStreamDifferential.check(data) }
    case "json-reader":
      return { data in JSONReaderCheck.check(data) }
    case "device-input":
      // A device API body: taken whole or refused as a bounded 400 (`DeviceInput.broken(by:)`).
      return { data in
        if let broken = DeviceInput.broken(by: data, teams: teams, at: Date(timeIntervalSince1970: 1_772_910_000)) {
          fatalError("the device API took or refused a body wrongly: \(broken)")
        }
      }
    case "fcm-answer":
      return { data in
        if let broken = FCMInvariants.brokenAnswer(data) { fatalError("an FCM answer was read wrongly: \(broken)") }
      }
    case "fcm-service-account":
      return { data in
        if let broken = FCMInvariants.brokenServiceAccount(data) {
          fatalError("a service-account file was read wrongly: \(broken)")
        }
      }
    case "generic-config":
      return { data in _ = try? ConfigReader.parse(String(decoding: data, as: UTF8.self), file: "fuzz.yml") }
    case "sb-decode":
      return { data in _ = try? WebServiceCodec.decode(Page(url: url, body: data)) }
    case "play-grammar":
      return { data in
        // action NUL text NUL team NUL team: the fields the play readers hand the grammar.
        let fields = String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
        let action = fields.first.map(String.init) ?? ""
        let text = fields.count > 1 ? String(fields[1]) : ""
        let teams = fields.dropFirst(2).map(String.init)
        _ = LacrossePlayText.read(action: action, text: text, teams: teams)
      }
    default: return nil
    }
  }
}
