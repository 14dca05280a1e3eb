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
    let body = try read(pageFile.path)
    var page = Page(
      url: url ?? request?.url, status: request?.status ?? 200, headers: request?.headers ?? [:],
      body: body, fetchedAt: request?.fetchedAt.flatMap { try? Date($0, strategy: .iso8601) }, file: pageFile.path)
    page.sport = request?.sport.map { Sport($0) }
    return page
  }

  /// The most a page read from a pipe may hold (a file's size is known before it is read).
  public static let maximumStreamBytes = 64 << 20

  /// A regular file's bytes, or what a FIFO or a terminal device (`/dev/stdin`) gives until it
  /// ends: `curl … | statline replay /dev/stdin` works. Anything else is named for what it is.
  static func read(_ path: String) throws(StatlineError) -> Data {
    var info = stat()
    // stat follows links: /dev/stdin is one, to the pipe or terminal behind it.
    let kind = stat(path, &info) == 0 ? info.st_mode & S_IFMT : S_IFREG
    switch kind {
    case S_IFREG:
      do {
        return try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw StatlineError(.io, "cannot read the page: \(error.localizedDescription)", location: path)
      }
    case S_IFIFO: return try readStream(path, what: "the pipe")
    case S_IFCHR: return try readStream(path, what: "the device")
    default:
      let name = kind == S_IFSOCK ? "a socket" : kind == S_IFBLK ? "a block device" : "not a file"
      throw StatlineError(
        .io, "cannot read the page: the path is \(name)", location: path,
        hint: "replay reads a file, a fixture or capture folder, a FIFO or /dev/stdin")
    }
  }

  private static func readStream(_ path: String, what: String) throws(StatlineError) -> Data {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw StatlineError(.io, "cannot open \(what) \(path) for reading", location: path)
    }
    defer { try? handle.close() }
    var body = Data()
    do {
      while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
        body.append(chunk)
        guard body.count <= maximumStreamBytes else {
          throw StatlineError(
            .io, "\(what) gave more than \(maximumStreamBytes >> 20) MiB: not a page", location: path,
            hint: "save the page to a file and replay the file")
        }
      }
    } catch let error as StatlineError {
      throw error
    } catch {
      throw StatlineError(.io, "cannot read \(what): \(error.localizedDescription)", location: path)
    }
    return body
  }

  /// `page.<ext>` in a folder, if there is one: html, xml, json, or txt (an encoded answer).
  public static func pageFile(in folder: URL) -> URL? {
    (DocumentFormat.allCases.map(\.fileExtension) + ["txt"]).lazy
      .map { folder.appendingPathComponent("page.\($0)") }
      .first { FileManager.default.fileExists(atPath: $0.path) }
  }
}
