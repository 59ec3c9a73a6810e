import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import Synchronization

/// A real HTTP server on 127.0.0.1, in the test process, for end-to-end calls.
///
/// - `/status/N` answers with status N.
/// - `/slow/MS` answers after MS milliseconds.
/// - `/redirect/N` redirects N times, then lands on `/echo`; `/loop` redirects to itself.
/// - `/moved/CODE` redirects with status CODE to `/echo/moved`; `/away` redirects to
///   `/echo/away` on `localhost`, another origin than `127.0.0.1`.
/// - `/drop` closes the connection without answering.
/// - `/bytes/N` answers with N bytes.
/// - `/number/DIGITS` answers `{"echoed":DIGITS}`, the digits as a JSON number.
/// - `/stream/N` answers with N bytes written 64 KiB at a time, each after the last was sent,
///   so a body of any size costs the server one chunk of memory.
/// - `/drip/N/MS` sends N bytes in ten chunks, MS milliseconds apart, with a `Content-Length`.
/// - `/flaky/KEY/N/HOW` fails the first N requests made with KEY, then echoes. HOW is a status
///   code, `drop` or `slow` (two seconds); a `retry-after` query value is sent as `Retry-After`.
/// - `/sse/N/MS` sends N SSE events (`id: I`, `event: tick`, `data: {"n":I}`) MS milliseconds
///   apart, then ends; `/sse/N/MS/hold` keeps the body open after them; `/ndjson/N/MS` sends
///   `{"n":I}` lines.
/// - `/resumable/N/P` sends N SSE events in all, P a connection, from the one after the
///   request's `Last-Event-ID`, with `retry: 10`; 204 once all are sent.
/// - `/json` answers with a fixed document: a user with numbers, strings, arrays and null.
/// - `/people` is a small store: `POST /people` with a JSON body creates a person (201, with
///   `Location`, `ETag` and a session cookie), `GET` and `DELETE /people/ID` read and remove one.
/// - `/jobs/KEY/N` answers `{"state":"running"}` to the first N-1 requests with KEY, then
///   `{"state":"done"}`.
/// - `POST /token` with `{"user":"ann","password":"pw"}` logs in: the Nth login gets token
///   `tN`. `/protected/…` needs the latest token, as `Bearer` or `X-Auth-Token`; `t1` expires
///   after eight requests, so that a run sees one refresh.
/// - `/set-cookies` sets cookies of every kind; `/cookies…` answers with the `Cookie` header it got;
///   `/cookies/set?NAME=VALUE` sets cookies and redirects to `/cookies`, as httpbin's does.
/// - `/files/PATH` answers with the file at PATH in the folder `files` names, or 404.
/// - `/pages/STYLE` pages items in each style `paginate:` follows (see `pages(_:head:context:)`).
/// - anything else echoes the request as JSON: method, uri, headers and body.
public final class TestServer: Sendable {
    let channel: any Channel
    let counts: Counts
    let people: People
    let arrivals: Arrivals
    public let port: Int
    public let isTLS: Bool

    public var baseURL: String { "\(isTLS ? "https" : "http")://127.0.0.1:\(port)" }

    /// Starts the server on port `requested`; 0 picks a free one. With `compressing`, responses
    /// are gzip- or deflate-compressed for clients that accept it. With `tls`, it speaks HTTPS.
    public init(
        port requested: Int = 0, compressing: Bool = false, tls: TLSConfiguration? = nil, files: String? = nil
    ) throws {
        let counts = Counts()
        let people = People()
        let arrivals = Arrivals()
        let context = try tls.map { try NIOSSLContext(configuration: $0) }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    if compressing {
                        try channel.pipeline.syncOperations.addHandler(HTTPResponseCompressor())
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        TestServerHandler(counts: counts, people: people, files: files, arrivals: arrivals))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: requested).wait()
        port = channel.localAddress?.port ?? 0
        isTLS = tls != nil
        self.counts = counts
        self.people = people
        self.arrivals = arrivals
    }

    /// Waits until `count` requests whose path starts with `prefix` have arrived (their heads
    /// read), or `timeout` seconds pass: readiness for a test that acts while a request is in
    /// flight, instead of a sleep. Returns whether they arrived.
    @discardableResult
    public func waitForRequests(to prefix: String, count: Int = 1, timeout: Double = 10) -> Bool {
        arrivals.wait(for: prefix, count: count, timeout: timeout)
    }

    /// The ids of the people in the store.
    public var peopleIDs: [Int] {
        people.value.withLock { $0.people.keys.sorted() }
    }

    /// How many requests `/flaky/KEY/…` has had for `key`.
    public func requests(for key: String) -> Int {
        counts.value.withLock { $0[key] ?? 0 }
    }

    /// A server TLS configuration from the test fixtures; with `requiringClientCertificate`, it
    /// accepts only clients with a certificate from the test CA.
    /// A server configuration presenting `certificate`.pem with its key from `fixtures`.
    /// The context of `tlsConfiguration(fixtures:)`, for a server that takes one (`serve`'s).
    public static func tlsContext(fixtures: String) throws -> NIOSSLContext {
        try NIOSSLContext(configuration: tlsConfiguration(fixtures: fixtures))
    }

    public static func tlsConfiguration(
        fixtures: String, certificate: String = "server", requiringClientCertificate: Bool = false
    ) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(fixtures + "/\(certificate).pem").map {
                .certificate($0)
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: fixtures + "/\(certificate).key", format: .pem)))
        if requiringClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(fixtures + "/ca.pem"))
        }
        return configuration
    }

    public func stop() {
        try? channel.close().wait()
    }

    /// Serves until the process ends.
    public func wait() throws {
        try channel.closeFuture.wait()
    }
}

/// The paths of the requests that arrived, and a condition to wait on them.
final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var paths: [String] = []

    func arrived(_ path: String) {
        condition.lock()
        paths.append(path)
        condition.broadcast()
        condition.unlock()
    }

    func wait(for prefix: String, count: Int, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while paths.count(where: { $0.hasPrefix(prefix) }) < count {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }
}

/// The `/people` store.
final class People: Sendable {
    let value = Mutex<(people: [Int: [String: String]], next: Int)>(([:], 1))
}

final class Counts: Sendable {
    let value = Mutex<[String: Int]>([:])

    /// Counts one more request for `key` and returns how many there have been.
    func next(_ key: String) -> Int {
        value.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key] ?? 0
        }
    }
}

private final class TestServerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let counts: Counts
    let people: People
    let files: String?
    let arrivals: Arrivals
    init(counts: Counts, people: People, files: String?, arrivals: Arrivals) {
        self.counts = counts
        self.people = people
        self.files = files
        self.arrivals = arrivals
    }

    var head: HTTPRequestHead?
    var body = Data()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
            arrivals.arrived(head.uri)
        case .body(var buffer):
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head else { return }
            route(head, context: context)
        }
    }

    func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.count) {
        case ("files", _) where files != nil && !parts.contains(".."):
            let file = (files ?? "") + "/" + parts.dropFirst().joined(separator: "/")
            if let data = FileManager.default.contents(atPath: file) {
                respond(context, status: .ok, body: data, headers: [("Content-Type", "application/json")])
            } else {
                respond(context, status: .notFound, body: Data("no file".utf8))
            }
        case ("status", 2):
            let code = Int(parts[1]) ?? 500
            respond(context, status: HTTPResponseStatus(statusCode: code), body: Data("status \(code)".utf8))
        case ("slow", 2):
            let delay = Int64(parts[1]) ?? 1000
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) {
                self.respond(context, status: .ok, body: Data("slow".utf8))
            }
        case ("redirect", 2):
            let count = Int(parts[1]) ?? 0
            let location = count <= 1 ? "/echo/redirected" : "/redirect/\(count - 1)"
            respond(context, status: .found, body: Data(), headers: [("Location", location)])
        case ("moved", 2):
            // A redirect with status parts[1] to /echo/moved, for how each status is followed.
            let code = Int(parts[1]) ?? 302
            respond(
                context, status: HTTPResponseStatus(statusCode: code), body: Data("moved".utf8),
                headers: [("Location", "/echo/moved")])
        case ("away", 1):
            // A redirect to the same server under another host name, which is another origin.
            let host = head.headers.first(name: "Host") ?? ""
            let port = host.split(separator: ":").last.map(String.init) ?? ""
            respond(
                context, status: .found, body: Data(), headers: [("Location", "http://localhost:\(port)/echo/away")])
        case ("loop", 1):
            respond(context, status: .found, body: Data(), headers: [("Location", "/loop")])
        case ("drop", 1):
            context.close(promise: nil)
        case ("flaky", 4) where counts.next(parts[1]) <= Int(parts[2]) ?? 0:
            switch parts[3] {
            case "drop":
                context.close(promise: nil)
            case "slow":
                context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) {
                    self.respond(context, status: .ok, body: Data("slow".utf8))
                }
            default:
                let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
                let retryAfter = query.split(separator: "&").first { $0.hasPrefix("retry-after=") }
                    .map { String($0.dropFirst("retry-after=".count)) }
                respond(
                    context, status: HTTPResponseStatus(statusCode: Int(parts[3]) ?? 503), body: Data("try again".utf8),
                    headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
            }
        case ("drip", 3):
            let count = Int(parts[1]) ?? 0
            let delay = Int64(parts[2]) ?? 100
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(name: "Content-Length", value: String(count))
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            drip(context, remaining: count, chunk: max(count / 10, 1), delay: delay)
        case ("resumable", 3):
            // N SSE events in all, P a connection, after the `Last-Event-ID` sent, with
            // `retry: 10`; a request after the last event gets 204, which ends a resumed stream.
            let total = Int(parts[1]) ?? 0
            let each = Int(parts[2]) ?? 1
            let next = head.headers.first(name: "Last-Event-ID").flatMap { Int($0) }.map { $0 + 1 } ?? 0
            guard next < total else {
                respond(context, status: .noContent, body: Data())
                return
            }
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(name: "Content-Type", value: "text/event-stream")
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            var text = "retry: 10\n\n"
            for n in next..<min(next + each, total) { text += "id: \(n)\ndata: {\"n\":\(n)}\n\n" }
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case ("sse", 3), ("sse", 4), ("ndjson", 3):
            // N events MS milliseconds apart, chunked; `/sse/N/MS/hold` keeps the body open
            // after the last instead of ending it.
            let count = Int(parts[1]) ?? 0
            let delay = Int64(parts[2]) ?? 100
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(
                name: "Content-Type", value: parts[0] == "sse" ? "text/event-stream" : "application/x-ndjson")
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            events(context, ndjson: parts[0] == "ndjson", next: 0, count: count, delay: delay, hold: parts.count == 4)
        case ("people", 1) where head.method == .POST:
            let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
            let id = people.value.withLock { store in
                let id = store.next
                store.next += 1
                store.people[id] = fields
                return id
            }
            respondJSON(
                context, status: .created, ["id": id, "first_name": fields["first_name"] ?? ""],
                headers: [
                    ("Location", "/people/\(id)"), ("ETag", "\"v\(id)\""), ("Set-Cookie", "session=s\(id)abc; Path=/"),
                ])
        case ("people", 2):
            let id = Int(parts[1]) ?? 0
            let person = people.value.withLock { store in
                head.method == .DELETE ? store.people.removeValue(forKey: id) : store.people[id]
            }
            if let person {
                if head.method == .DELETE {
                    respond(context, status: .noContent, body: Data())
                } else {
                    respondJSON(context, status: .ok, ["id": id, "first_name": person["first_name"] ?? ""])
                }
            } else {
                respondJSON(context, status: .notFound, ["message": "no person \(id)"])
            }
        case ("pages", 2):
            pages(parts[1], head: head, context: context)
        case ("jobs", 3):
            let polls = counts.next("job-" + parts[1])
            let done = polls >= Int(parts[2]) ?? 1
            respondJSON(context, status: .ok, ["state": done ? "done" : "running", "polls": polls])
        case ("token", 1) where head.method == .POST:
            let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
            guard fields["user"] == "ann", fields["password"] == "pw" else {
                respondJSON(context, status: .unauthorized, ["message": "bad credentials"])
                return
            }
            let login = counts.next("logins")
            respondJSON(context, status: .ok, ["access_token": "t\(login)", "expires_in": 3600])
        case ("protected", _):
            let authorization = head.headers.first(name: "Authorization") ?? ""
            let token =
                authorization.hasPrefix("Bearer ")
                ? String(authorization.dropFirst(7)) : head.headers.first(name: "X-Auth-Token") ?? ""
            let latest = "t\(counts.value.withLock { $0["logins"] ?? 0 })"
            let fresh = token == latest && (token != "t1" || counts.next("uses-t1") <= 8)
            if fresh {
                respondJSON(context, status: .ok, ["ok": true, "token": token])
            } else {
                respondJSON(context, status: .unauthorized, ["message": "stale token"])
            }
        case ("set-cookies", 1):
            respond(
                context, status: .ok, body: Data("set".utf8),
                headers: [
                    ("Set-Cookie", "session=abc123; Path=/; HttpOnly"),
                    ("Set-Cookie", "scoped=1; Path=/cookies/scoped"),
                    ("Set-Cookie", "secure=1; Secure"),
                    ("Set-Cookie", "gone=1; Max-Age=0"),
                    ("Set-Cookie", "expired=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT"),
                    ("Set-Cookie", "elsewhere=1; Domain=example.com"),
                    ("Set-Cookie", "later=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Path=/"),
                ])
        case ("cookies", 2) where parts[1] == "set":
            // httpbin's /cookies/set?NAME=VALUE: sets the cookies and redirects to /cookies.
            let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            let cookies = query.split(separator: "&").map { ("Set-Cookie", "\($0); Path=/") }
            respond(context, status: .found, body: Data(), headers: [("Location", "/cookies")] + cookies)
        case ("cookies", _):
            respondJSON(context, status: .ok, ["cookie": head.headers.first(name: "Cookie") ?? ""])
        case ("json", 1):
            let document = #"""
                {"id":1,"first_name":"Harry","last_name":"Potter","score":9.5,"admin":false,"tags":[],\#
                "friends":[{"id":2,"name":"Ron"},{"id":3,"name":"Hermione"}],"a.b":"dotted","house":null}
                """#
            respond(
                context, status: .ok, body: Data(document.utf8), headers: [("Content-Type", "application/json")])
        case ("stream", 2):
            let count = Int(parts[1]) ?? 0
            var head = HTTPResponseHead(version: .http1_1, status: .ok)
            head.headers.add(name: "Content-Length", value: String(count))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            stream(context, remaining: count, chunk: ByteBuffer(repeating: UInt8(ascii: "s"), count: 1 << 16))
        case ("oauth", 1) where head.method == .POST:
            // An OAuth token response: the token a login reads, and two it does not.
            respondJSON(
                context, status: .ok,
                [
                    "access_token": "acc3ss-t0ken", "refresh_token": "r3fresh-t0ken-secret",
                    "id_token": "id-t0ken-secret", "expires_in": 3600,
                ])
        case ("cookie-echo", 1):
            // A cookie set, and its value in the body too.
            respond(
                context, status: .ok, body: Data(#"{"sid":"c00kie-in-body"}"#.utf8),
                headers: [("Content-Type", "application/json"), ("Set-Cookie", "sid=c00kie-in-body; Path=/")])
        case ("blank-lines", 1):
            respond(
                context, status: .ok, body: Data("first\nsecond\n\n\n".utf8),
                headers: [("Content-Type", "text/plain")])
        case ("number", 2):
            // A value echoed as a JSON number, as an API echoes a PIN or an account number.
            let document = #"{"echoed":\#(parts[1].allSatisfy(\.isNumber) ? parts[1] : "0")}"#
            respond(
                context, status: .ok, body: Data(document.utf8), headers: [("Content-Type", "application/json")])
        case ("bytes", 2):
            let count = Int(parts[1]) ?? 0
            respond(context, status: .ok, body: Data((0..<count).map { UInt8($0 % 251) }))
        default:
            var headers: [[String]] = []
            for (name, value) in head.headers { headers.append([name, value]) }
            var object: [String: Any] = [
                "method": head.method.rawValue, "uri": head.uri, "headers": headers,
            ]
            if let text = String(data: body, encoding: .utf8) {
                object["body"] = text
            } else {
                object["bodyBase64"] = body.base64EncodedString()
            }
            var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            // Under /ascii, as Python's json.dumps writes by default: every character past
            // ASCII as a \u escape (a pair past the Basic Multilingual Plane).
            if parts.first == "ascii" {
                var text = ""
                for unit in String(decoding: data, as: UTF8.self).utf16 {
                    if unit < 0x80 {
                        text.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
                    } else {
                        text += String(format: "\\u%04x", unit)
                    }
                }
                data = Data(text.utf8)
            }
            respond(context, status: .ok, body: data, headers: [("Content-Type", "application/json")])
        }
    }

    func stream(_ context: ChannelHandlerContext, remaining: Int, chunk: ByteBuffer) {
        guard context.channel.isActive else { return }
        guard remaining > 0 else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let part = chunk.getSlice(at: 0, length: min(chunk.readableBytes, remaining)) ?? chunk
        let sent = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(part))))
        sent.assumeIsolated().whenSuccess {
            self.stream(context, remaining: remaining - part.readableBytes, chunk: chunk)
        }
    }

    func events(_ context: ChannelHandlerContext, ndjson: Bool, next: Int, count: Int, delay: Int64, hold: Bool) {
        guard context.channel.isActive else { return }
        guard next < count else {
            if !hold { context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil) }
            return
        }
        let text = ndjson ? "{\"n\":\(next)}\n" : "id: \(next)\nevent: tick\ndata: {\"n\":\(next)}\n\n"
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) {
            self.events(context, ndjson: ndjson, next: next + 1, count: count, delay: delay, hold: hold)
        }
    }

    func drip(_ context: ChannelHandlerContext, remaining: Int, chunk: Int, delay: Int64) {
        guard context.channel.isActive else { return }
        guard remaining > 0 else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let size = min(chunk, remaining)
        let bytes = ByteBuffer(repeating: UInt8(ascii: "x"), count: size)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) {
            self.drip(context, remaining: remaining - size, chunk: chunk, delay: delay)
        }
    }

    /// `/pages/STYLE?total=T&size=S[&pad=P]`: T items, `{"id": N}` (with `"pad"` of P bytes), S
    /// to a page, paged as STYLE says:
    /// `link` (`page=`, a relative `Link: rel="next"`), `url` (`page=`, an absolute `next` in
    /// the body, `null` on the last), `cursor` (`cursor=`, `meta.next_cursor`, empty on the
    /// last), `number` (`page=` from 1, an empty `results` past the end), `away` (a `Link` to
    /// `localhost`, another origin), `broken` (a `Link` to `/status/503`) and `loop` (a `Link`
    /// to itself).
    func pages(_ style: String, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            values[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let total = Int(values["total"] ?? "") ?? 10
        let size = max(Int(values["size"] ?? "") ?? 3, 1)
        let start: Int
        if style == "cursor" {
            start = Int((values["cursor"] ?? "c0").dropFirst()) ?? 0
        } else {
            start = ((Int(values["page"] ?? "") ?? 1) - 1) * size
        }
        let page = start / size + 1
        // `pad=N` gives each item N bytes more, for a benchmark of large pages.
        let pad = String(repeating: "x", count: min(max(Int(values["pad"] ?? "") ?? 0, 0), 1 << 20))
        let items: [[String: Any]] = (start..<min(max(start, total), start + size)).map {
            pad.isEmpty ? ["id": $0 + 1] : ["id": $0 + 1, "pad": pad]
        }
        let more = start + size < total
        let rest = "total=\(total)&size=\(size)" + (pad.isEmpty ? "" : "&pad=\(pad.count)")
        let host = head.headers.first(name: "Host") ?? "127.0.0.1"
        switch style {
        case "link":
            let link =
                more
                ? [
                    (
                        "Link",
                        "</pages/link?page=\(page + 1)&\(rest)>; rel=\"next\", </pages/link?page=1>; rel=\"first\""
                    )
                ] : []
            let data = (try? JSONSerialization.data(withJSONObject: items)) ?? Data()
            respond(context, status: .ok, body: data, headers: [("Content-Type", "application/json")] + link)
        case "url":
            let next: Any = more ? "http://\(host)/pages/url?page=\(page + 1)&\(rest)" : NSNull()
            respondJSON(context, status: .ok, ["data": items, "next": next])
        case "cursor":
            respondJSON(
                context, status: .ok, ["items": items, "meta": ["next_cursor": more ? "c\(start + size)" : ""]])
        case "number":
            respondJSON(context, status: .ok, ["results": items])
        case "away":
            let port = host.split(separator: ":").last.map(String.init) ?? ""
            respond(
                context, status: .ok, body: Data("[1]".utf8),
                headers: [
                    ("Content-Type", "application/json"), ("Link", "<http://localhost:\(port)/pages/link>; rel=next"),
                ])
        case "awayecho", "downgrade":
            // A next page on another origin that echoes what it was sent, or (downgrade) the
            // same host over plain http.
            let port = host.split(separator: ":").last.map(String.init) ?? ""
            let next =
                style == "awayecho" ? "http://localhost:\(port)/echo/away" : "http://127.0.0.1:\(port)/echo/plain"
            respond(
                context, status: .ok, body: Data(#"{"headers":[]}"#.utf8),
                headers: [("Content-Type", "application/json"), ("Link", "<\(next)>; rel=next")])
        case "broken":
            respond(
                context, status: .ok, body: Data("[1]".utf8),
                headers: [("Content-Type", "application/json"), ("Link", "</status/503>; rel=\"next\"")])
        default:
            respond(
                context, status: .ok, body: Data("[1]".utf8),
                headers: [("Content-Type", "application/json"), ("Link", "</pages/loop>; rel=\"next\"")])
        }
    }

    func respondJSON(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, _ object: [String: Any],
        headers: [(String, String)] = []
    ) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        respond(context, status: status, body: data, headers: [("Content-Type", "application/json")] + headers)
    }

    func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, body: Data, headers: [(String, String)] = []
    ) {
        var head = HTTPResponseHead(version: .http1_1, status: status)
        head.headers.add(name: "Content-Length", value: String(body.count))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
