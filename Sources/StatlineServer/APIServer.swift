import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The read API on Hummingbird 2: an application (a swift-service-lifecycle `Service`) that
/// hands every request to `ReadAPI`. Graceful shutdown lets requests in flight finish.
public struct APIServer: Sendable {
  public let api: ReadAPI

  public init(api: ReadAPI) { self.api = api }

  /// - Parameter onRunning: called with the bound port once the server listens (port 0 binds an
  ///   ephemeral one).
  public func application(
    host: String, port: Int, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let api = api
    let responder = CallbackResponder<BasicRequestContext> { request, _ in
      var headers: [String: String] = [:]
      for field in request.headers {
        let name = field.name.canonicalName
        headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
      }
      let answer = await api.respond(
        APIRequest(
          method: request.method.rawValue, path: request.uri.path, query: request.uri.query, headers: headers))
      var fields = HTTPFields()
      for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) where name != "content-length" {
        if let name = HTTPField.Name(name) { fields[name] = value }
      }
      var body = ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
      if request.method == .head, let length = answer.headers["content-length"].flatMap(Int.init) {
        body = ResponseBody(contentLength: length) { _ in }
      }
      return Response(status: HTTPResponse.Status(code: answer.status), headers: fields, body: body)
    }
    return Application(
      responder: responder,
      configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "Statline"),
      onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) }, logger: logger)
  }
}
