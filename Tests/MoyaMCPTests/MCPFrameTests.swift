import Foundation
import MoyaCore
import TestSupport
import XCTest

/// `moya-cli mcp` fed raw bytes: malformed and oversized messages, a closed stdin, signals, and
/// the audit log.
final class MCPFrameTests: XCTestCase {
    /// Runs `moya-cli mcp ARGUMENTS`, writes `input`, closes stdin, and answers the status,
    /// stdout's lines and stderr.
    func run(_ arguments: [String], input: Data, environment: [String: String] = [:]) throws -> (
        Int32, [String], String
    ) {
        let (process, stdin, stdout, stderr) = try launch(arguments, environment: environment)
        let errorText = ErrorText()
        let outText = ErrorText()
        stderr.fileHandleForReading.readabilityHandler = { errorText.append($0.availableData) }
        stdout.fileHandleForReading.readabilityHandler = { outText.append($0.availableData) }
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        stderr.fileHandleForReading.readabilityHandler = nil
        stdout.fileHandleForReading.readabilityHandler = nil
        outText.append(stdout.fileHandleForReading.readDataToEndOfFile())
        errorText.append(stderr.fileHandleForReading.readDataToEndOfFile())
        return (
            process.terminationStatus, outText.text.split(separator: "\n").map(String.init), errorText.text
        )
    }

    /// Starts `moya-cli mcp ARGUMENTS`, its three streams piped.
    func launch(_ arguments: [String], environment: [String: String]) throws -> (Process, Pipe, Pipe, Pipe) {
        let started = try Launch.start(MCPSession.executable, ["mcp"] + arguments, environment: environment)
        return (started.process, started.input, started.output, started.error)
    }

    static let initialize =
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#

    var specs: [String] { ["--specs", MCPSession.fixtures + "/shop.yaml", "--stub", "immediate"] }
    let environment = ["TEST_SERVER": "http://127.0.0.1:9", "SHOP_KEY": "k"]

    func testMalformedAndOversizedMessagesAreAnsweredAndTheServerGoesOn() throws {
        var input = Data((Self.initialize + "\n").utf8)
        input += Data("garbage{\n".utf8)
        input += Data((String(repeating: "x", count: (4 << 20) + 10) + "\n").utf8)
        input += Data(#"{"jsonrpc":"2.0","id":2,"method":"server/discover"}"#.utf8 + [10])
        input += Data(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#.utf8 + [10])
        let (status, lines, errors) = try run(specs, input: input, environment: environment)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(lines.count, 5, lines.joined(separator: "\n"))
        XCTAssertTrue(
            lines.contains(
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the message is not JSON"}}"#
            ))
        XCTAssertTrue(
            lines.contains(
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message refused: 4194314 bytes, over the 4 MiB limit"}}"#
            ), lines.joined(separator: "\n"))
        // A client that tries the newer discovery first hears method-not-found, and falls back.
        XCTAssertTrue(lines.contains { $0.contains(#""code":-32601"#) && $0.contains(#""id":2"#) })
        XCTAssertTrue(lines.contains(#"{"jsonrpc":"2.0","id":3,"result":{}}"#), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains(#""protocolVersion":"2025-06-18""#) })
    }

    func testClosingStdinAnswersWhatWasAskedAndExitsZero() throws {
        let call =
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shop.user","arguments":{"id":1}}}"#
        let (status, lines, _) = try run(
            specs, input: Data((Self.initialize + "\n" + call + "\n").utf8), environment: environment)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(
            lines.contains { line in
                guard let message = try? JSONValue(parsing: Data(line.utf8)) else { return false }
                return message["id"] == .integer(2) && message["result"]?["content"] != nil
            }, lines.joined(separator: "\n"))
    }

    func testSIGTERMEndsItWithinASecond() throws {
        for signal in [SIGTERM, SIGINT] {
            let (process, stdin, stdout, stderr) = try launch(specs, environment: environment)
            // Ready once it answers a ping: signals are handled from then on.
            stdin.fileHandleForWriting.write(Data(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8 + [10]))
            var answered = Data()
            while !answered.contains(10) { answered += stdout.fileHandleForReading.availableData }
            let start = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
            XCTAssertEqual(process.terminationStatus, 0)
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(errors.hasSuffix(": stopping\n"), errors)
        }
    }

    func testASpecProblemFoundWhileServingEndsItAsAtStart() throws {
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-invalid-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The first 200 targets are the preview, and fine; the 250th is not.
        var text = "service: many\nbaseURL: http://127.0.0.1:9\ntargets:\n"
        for index in 0..<300 { text += "  t\(index):\n    path: /things/\(index)\n" }
        text += "  broken:\n    method: FETCH\n"
        try text.write(toFile: folder + "/many.yaml", atomically: true, encoding: .utf8)
        let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"100"}}"#
        let (status, _, errors) = try run(
            ["--specs", folder + "/many.yaml"], input: Data((Self.initialize + "\n" + list + "\n").utf8))
        XCTAssertEqual(status, 65)
        XCTAssertEqual(
            errors,
            "\(folder)/many.yaml:605:13: error: targets.broken.method: unknown HTTP method \"FETCH\"; expected one of "
                + "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE, CONNECT, QUERY, or a method of IANA's registry "
                + "in capitals (COPY, LOCK, PROPFIND, …)\n"
                + "moya-cli: error: invalid spec: 1 problem in 1 file\n")
    }

    func testOnlyThatMatchesNothingIsAUsageErrorEvenWhenStdinClosesFirst() throws {
        let (status, lines, errors) = try run(
            specs + ["--only", "zz*", "--only", "shop.user"], input: Data(), environment: environment)
        XCTAssertEqual(status, 64)
        XCTAssertEqual(lines, [])
        XCTAssertEqual(errors, "moya-cli: error: --only 'zz*' matches no target or flow; see moya-cli list\n")
    }

    func testTheAuditLogHasOneLinePerCallSecretsMasked() throws {
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-audit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let audit = folder + "/audit.jsonl"
        let calls = [
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shop.user","arguments":{"id":1}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"shop.createPerson","arguments":{"name":"k3y-s3cret"}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"shop.user","arguments":{"id":"x"}}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        ]
        // One at a time, so the lines' order is the calls'.
        for call in calls {
            let (status, _, errors) = try run(
                specs + ["--audit", audit], input: Data((Self.initialize + "\n" + call + "\n").utf8),
                environment: ["TEST_SERVER": "http://127.0.0.1:9", "SHOP_KEY": "k3y-s3cret"])
            XCTAssertEqual(status, 0, errors)
        }
        let text = try String(contentsOfFile: audit, encoding: .utf8)
        let lines = text.split(separator: "\n").map { line in
            line.replacing(/"time":"[0-9T:.Z-]+"/, with: #""time":"T""#).replacing(/"ms":\d+/, with: #""ms":0"#)
        }
        XCTAssertEqual(
            lines,
            [
                #"{"time":"T","tool":"shop.user","arguments":{"id":1},"outcome":"ok","status":200,"ms":0,"bytes":29}"#,
                #"{"time":"T","tool":"shop.createPerson","arguments":{"name":"••••"},"outcome":"refused","status":null,"ms":0,"bytes":0}"#,
                #"{"time":"T","tool":"shop.user","arguments":{"id":"x"},"outcome":"invalid","status":null,"ms":0,"bytes":0}"#,
                #"{"time":"T","tool":"nope","arguments":{},"outcome":"refused","status":null,"ms":0,"bytes":0}"#,
            ])
        let attributes = try FileManager.default.attributesOfItem(atPath: audit)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        // A link is never followed.
        let link = folder + "/link.jsonl"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/elsewhere")
        let (status, _, errors) = try run(
            specs + ["--audit", link], input: Data((Self.initialize + "\n").utf8), environment: environment)
        XCTAssertEqual(status, 73)
        XCTAssertEqual(
            errors, "moya-cli: error: --audit \(link): is a symbolic link, which the audit log never follows\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/elsewhere"))
    }
    /// Finding 14: a request whose id no response could name is refused at once, and closing
    /// stdin still ends the server.
    func testAnIdThatCannotBeAnsweredIsRefusedAndTheServerStillEnds() throws {
        let input =
            [
                Self.initialize, #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
                #"{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}"#,
                #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                #"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            ].joined(separator: "\n") + "\n"
        let (status, lines, errors) = try run(specs, input: Data(input.utf8), environment: environment)
        XCTAssertEqual(status, 0, errors)
        let refusal =
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: an id must be a string or a number"}}"#
        XCTAssertEqual(lines.filter { $0 == refusal }.count, 3, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains(#"{"jsonrpc":"2.0","id":7,"result":{}}"#), lines.joined(separator: "\n"))
        XCTAssertEqual(lines.count, 5)
    }

    /// `--http`'s command line: beyond loopback only with tokens or an explicit `--no-auth`;
    /// its flags only with it; keys that cannot be had, and a port taken, end the server
    /// before it serves, on one line.
    func testHTTPCommandLineRefusals() throws {
        let specs = ["--specs", MCPSession.root + "/specs/myservice.yaml"]
        let usage = "Usage: moya-cli mcp <options>\n  See 'moya-cli mcp --help' for more information.\n"
        let cases: [([String], String)] = [
            (
                ["--http", "0.0.0.0:8080"],
                "--http 0.0.0.0:8080 listens beyond this machine: require tokens with --auth-issuer and --audience, "
                    + "or say --no-auth"
            ),
            (["--no-auth"], "--no-auth needs --http"),
            (
                ["--http", "8080", "--audience", "https://a.test/mcp"],
                "--auth-issuer and --audience go together: "
                    + "a token is checked for both"
            ),
            (["--http", "host:99999"], "--http takes [HOST:]PORT, a port from 0 to 65535, not 'host:99999'"),
            (["--http", "8080", "--write-scope", "w"], "--write-scope needs --auth-issuer"),
            (["--http", "8080", "--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
            (
                ["--http", "8080", "--allow-origin", "app.test"],
                "--allow-origin takes scheme://host[:port], not 'app.test'"
            ),
        ]
        for (flags, message) in cases {
            let (status, output, errors) = try run(specs + flags, input: Data())
            XCTAssertEqual(status, 64, flags.joined(separator: " "))
            XCTAssertEqual(output, [])
            XCTAssertEqual(errors, "moya-cli: error: \(message)\n" + usage)
        }
        let (status, _, errors) = try run(
            specs + [
                "--http", "0", "--auth-issuer", "https://auth.test", "--audience", "https://a.test/mcp", "--jwks",
                "/nonexistent/jwks.json",
            ], input: Data())
        XCTAssertEqual(status, 1)
        XCTAssertEqual(errors, "moya-cli: error: --jwks /nonexistent/jwks.json: cannot read the file\n")
        let holder = try TestServer()
        defer { holder.stop() }
        let (taken, _, takenErrors) = try run(specs + ["--http", "127.0.0.1:\(holder.port)"], input: Data())
        XCTAssertEqual(taken, 1)
        XCTAssertEqual(
            takenErrors, "moya-cli: error: cannot listen on 127.0.0.1:\(holder.port): address already in use\n")
    }

    /// Finding 13: a FIFO as --audit is refused before serving, and never blocks.
    func testAFIFOAsTheAuditLogIsRefusedAtOnce() throws {
        let folder = NSTemporaryDirectory() + "moya-cli-mcp-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(mkfifo(folder + "/audit", 0o600), 0)
        let started = Date()
        let (status, lines, errors) = try run(
            specs + ["--audit", folder + "/audit"], input: Data((Self.initialize + "\n").utf8),
            environment: environment)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(status, 73)
        XCTAssertEqual(lines, [])
        XCTAssertEqual(errors, "moya-cli: error: --audit \(folder)/audit: is not a regular file\n")
    }
}

extension MCPFrameTests {
    /// Finding 15: a start waiting on an issuer that never answers ends at SIGTERM, and a
    /// FIFO as `--tls-cert` is refused at once, never waited on.
    func testAStartWaitingOnASilentIssuerEndsAtSIGTERM() throws {
        // An issuer that takes connections and never answers: a socket that listens.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        XCTAssertTrue(listening)
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let issuer = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let (process, _, _, stderr) = try launch(
            [
                "--specs", MCPSession.root + "/specs/myservice.yaml", "--http", "127.0.0.1:0", "--auth-issuer", issuer,
                "--audience", "https://mcp.test/mcp",
            ], environment: [:])
        // Waiting on the issuer once its connection is taken.
        let connection = accept(listener, nil, nil)
        XCTAssertGreaterThanOrEqual(connection, 0)
        defer { close(connection) }
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.0)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(
            String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "moya-cli: SIGTERM: stopping\n")

        let folder = NSTemporaryDirectory() + "moya-cli-mcp-tls-fifo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertEqual(mkfifo(folder + "/cert.pem", 0o600), 0)
        let key = MCPSession.root + "/Tests/Fixtures/tls/server.key"
        let started = Date()
        let (status, _, errors) = try run(
            [
                "--specs", MCPSession.root + "/specs/myservice.yaml", "--http", "127.0.0.1:0", "--no-auth",
                "--tls-cert", folder + "/cert.pem", "--tls-key", key,
            ], input: Data())
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertEqual(status, 64)
        XCTAssertEqual(
            errors,
            "moya-cli: error: cannot serve TLS with --tls-cert \(folder)/cert.pem and --tls-key \(key): "
                + "--tls-cert: the file is a FIFO, not a regular file\n")
    }
}
