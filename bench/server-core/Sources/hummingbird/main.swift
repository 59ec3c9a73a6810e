import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 0
let builder: HTTPServerBuilder = .http1()
let server = try builder.buildServer(
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
    logger: Logger(label: "hello"),
    responder: { _, writer, channel in
        var body = try await writer.writeHead(.init(status: .ok, headerFields: [.contentLength: "5"]))
        try await body.write(channel.allocator.buffer(string: "Hello"))
        try await body.finish(nil)
    }
)
if arguments.contains("--exit") { exit(0) }
try await server.run()
