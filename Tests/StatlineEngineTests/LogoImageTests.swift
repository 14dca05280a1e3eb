import Foundation
import StatlineCore
import StatlineEngine
import Testing

/// A logo's type is read from its bytes, and an SVG that could run anything is refused.
@Suite struct LogoImageTests {
  static let url = "https://logos.example/457.svg"

  static func type(_ bytes: [UInt8]) throws -> String { try LogoImage.contentType(of: Data(bytes), url: url) }
  static func type(_ text: String) throws -> String { try LogoImage.contentType(of: Data(text.utf8), url: url) }

  @Test func rasterTypesAreReadFromTheirMagicBytes() throws {
    #expect(try Self.type([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == "image/png")
    #expect(try Self.type([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]) == "image/jpeg")
    #expect(try Self.type(Array("GIF89a\u{1}\u{0}".utf8)) == "image/gif")
    #expect(try Self.type(Array("GIF87a\u{1}\u{0}".utf8)) == "image/gif")
    #expect(try Self.type(Array("RIFF\u{10}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "image/webp")
  }

  @Test func anSVGIsReadAfterItsDeclarationCommentsAndDoctype() throws {
    let svg = """
      \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
      <!-- Generator: Adobe Illustrator -->
      <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z" fill="#c00"/></svg>
      """
    #expect(try Self.type(svg) == "image/svg+xml")
    #expect(try Self.type("<SVG/>") == "image/svg+xml")
  }

  @Test(arguments: [
    ("<svg><script>alert(1)</script></svg>", "<script"),
    ("<svg><rect onload=\"alert(1)\"/></svg>", "onload="),
    ("<svg><rect\nONCLICK = 'x'/></svg>", "onclick="),
    ("<svg><a href=\"javascript:alert(1)\"><rect/></a></svg>", "javascript:"),
    ("<svg><foreignObject><div>hi</div></foreignObject></svg>", "<foreignobject"),
    ("<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><svg>&x;</svg>", "<!entity"),
  ])
  func anSVGThatCouldRunIsRefused(svg: String, marker: String) {
    #expect {
      try Self.type(svg)
    } throws: { error in
      let error = error as? StatlineError
      return error?.kind == .unsafeDocument && error?.reason.contains("active content (\(marker))") == true
        && error?.location == Self.url
    }
  }

  @Test func wordsThatOnlyLookLikeHandlersAreKept() throws {
    // "font" and "stroke-linejoin" hold "on" without a space before it; text content is no tag.
    let svg = "<svg font-family=\"x\" stroke-linejoin=\"round\"><text>one=two</text></svg>"
    #expect(try Self.type(svg) == "image/svg+xml")
  }

  @Test(arguments: [
    ("", "the answer is empty"),
    ("<!DOCTYPE html><html><body>Access denied</body></html>", "not a PNG, JPEG, GIF, WebP or SVG"),
    ("{\"error\":\"not found\"}", "not a PNG, JPEG, GIF, WebP or SVG"),
    ("<svgx></svgx>", "not a PNG, JPEG, GIF, WebP or SVG"),
  ])
  func anythingElseIsRefusedWithTheReason(body: String, reason: String) {
    #expect {
      try Self.type(body)
    } throws: { error in
      (error as? StatlineError)?.reason.contains(reason) == true
    }
  }
}
