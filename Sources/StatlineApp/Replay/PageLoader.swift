import Foundation
import StatlineCore

/// Loads a saved page from disk: a bare file, or a folder (a fixture case or a capture) that
/// holds `page.<ext>` and `request.json`.
public enum PageLoader {
  public static func load(_ path: String, url: String? = nil) throws(StatlineError) -> Page {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw StatlineError(.io, "no such file", location: path, hint: "check the path")
    }
    let pageFile: URL
    if isDirectory.boolValue {
      guard let found = Self.pageFile(in: URL(fileURLWithPath: path)) else {
        throw StatlineError(
          .io, "the folder holds no page.html, page.xml, page.json or page.txt", location: path,
          hint: "replay a page file, or a fixture case / capture folder")
      }
      pageFile = found
    } else {
      pageFile = URL(fileURLWithPath: path)
    }
    let record = pageFile.deletingLastPathComponent().appendingPathComponent("request.json")
    let request =
      FileManager.default.fileExists(atPath: record.path) && pageFile.lastPathComponent.hasPrefix("page.")
      ? try RequestRecord.load(record) : nil
    let body: Data
    do {
      body = try Data(contentsOf: pageFile)
    } catch {
      throw StatlineError(.io, "cannot read the page: \(error.localizedDescription)", location: pageFile.path)
    }
    return Page(
      url: url ?? request?.url, status: request?.status ?? 200, headers: request?.headers ?? [:],
      body: body, fetchedAt: nil, file: pageFile.path)
  }

  /// `page.<ext>` in a folder, if there is one: html, xml, json, or txt (an encoded answer).
  public static func pageFile(in folder: URL) -> URL? {
    (DocumentFormat.allCases.map(\.fileExtension) + ["txt"]).lazy
      .map { folder.appendingPathComponent("page.\($0)") }
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }
}
