import Foundation
import MoyaCore
import Synchronization
import TestSupport
import XCTest

/// MoyaProvider's semantics: plugin order, stubs, validation, cancellation and live HTTP.
final class ProviderTests: XCTestCase {
    struct Target: AccessTokenAuthorizable {
        var baseURL: URL
        var path: String = "/echo"
        var method: MoyaCore.Method = .get
        var task: MoyaCore.Task = .requestPlain
        var headers: [String: String]? = ["X-A": "1"]
        var sampleData: Data = Data("sample".utf8)
        var validationType: ValidationType = .successCodes
        var authorizationType: AuthorizationType? = nil
    }

    /// Records every hook call in order.
    final class Recorder: PluginType {
        let name: String
        let log: Mutex<[String]>
        let shared: SharedLog

        final class SharedLog: Sendable {
            let entries = Mutex<[String]>([])
            func append(_ entry: String) { entries.withLock { $0.append(entry) } }
            var all: [String] { entries.withLock { $0 } }
        }

        init(_ name: String, _ shared: SharedLog) {
            self.name = name
            self.shared = shared
            log = Mutex([])
        }

        func prepare(_ request: Request, target: any TargetType) -> Request {
            shared.append("\(name).prepare")
            var request = request
            request.headers.add(name: "X-Prepared-By", value: name)
            return request
        }

        func willSend(_ request: Request, target: any TargetType) {
            shared.append("\(name).willSend(\(request.headers.fields.filter { $0.name == "X-Prepared-By" }.count))")
        }

        func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
            switch result {
            case .success(let response): shared.append("\(name).didReceive(\(response.statusCode))")
            case .failure(let error): shared.append("\(name).didReceive(\(error.errorDescription))")
            }
        }

        func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
            shared.append("\(name).process")
            return result
        }
    }

    let base = URL(string: "http://127.0.0.1:1")!

    func testPluginsRunInMoyasOrderAroundAStub() async throws {
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(
            stubClosure: MoyaProvider.immediatelyStub, plugins: [Recorder("a", log), Recorder("b", log)])
        let response = try await provider.request(Target(baseURL: base))
        XCTAssertEqual(response.data, Data("sample".utf8))
        XCTAssertEqual(response.request?.headers["X-A"], "1")
        XCTAssertEqual(
            log.all,
            [
                "a.prepare", "b.prepare", "a.willSend(2)", "b.willSend(2)", "a.didReceive(200)", "b.didReceive(200)",
                "a.process", "b.process",
            ])
    }

    func testARequestThatCannotBeBuiltOnlyRunsProcess() async {
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(stubClosure: MoyaProvider.immediatelyStub, plugins: [Recorder("a", log)])
        let target = Target(
            baseURL: base, method: .post,
            task: .requestCompositeParameters(
                bodyParameters: ["a": 1], bodyEncoding: URLEncoding.queryString, urlParameters: [:]))
        do {
            _ = try await provider.request(target)
            XCTFail("a query-destination body encoding must fail")
        } catch {
            guard case .parameterEncoding = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(log.all, ["a.process"])
    }

    /// Records, for each hook, whether it ran on a `QueueActor`.
    struct WhereHooksRun: PluginType {
        let log: Recorder.SharedLog

        func prepare(_ request: Request, target: any TargetType) -> Request {
            log.append("prepare: \(QueueActor.isCurrent)")
            return request
        }

        func willSend(_ request: Request, target: any TargetType) { log.append("willSend: \(QueueActor.isCurrent)") }

        func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
            log.append("didReceive: \(QueueActor.isCurrent)")
        }

        func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
            log.append("process: \(QueueActor.isCurrent)")
            return result
        }
    }

    func testAnImmediateStubIsAnsweredOnTheCallersActor() async throws {
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(
            endpointClosure: { target in
                log.append("endpoint: \(QueueActor.isCurrent)")
                return MoyaProvider.defaultEndpointMapping(for: target)
            },
            stubClosure: MoyaProvider.immediatelyStub, plugins: [WhereHooksRun(log: log)])
        let target = Target(baseURL: base)
        let response = try await QueueActor().run { _ in try await provider.request(target) }
        XCTAssertEqual(response.data, Data("sample".utf8))
        XCTAssertEqual(
            log.all, ["endpoint: true", "prepare: true", "willSend: true", "didReceive: true", "process: true"])
        XCTAssertFalse(QueueActor.isCurrent)
    }

    func testAnImmediateStubCompletesBeforeRequestReturns() throws {
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(stubClosure: MoyaProvider.immediatelyStub, plugins: [Recorder("a", log)])
        let received = Mutex<Response?>(nil)
        let cancellable = provider.request(Target(baseURL: base)) { result in
            received.withLock { $0 = try? result.get() }
        }
        XCTAssertEqual(received.withLock { $0?.data }, Data("sample".utf8))
        XCTAssertEqual(log.all, ["a.prepare", "a.willSend(1)", "a.didReceive(200)", "a.process"])
        XCTAssertFalse(cancellable.isCancelled)
        cancellable.cancel()
        XCTAssertTrue(cancellable.isCancelled)
    }

    func testPerformSendsARequestAlreadyBuilt() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(plugins: [Recorder("a", log)])
        let target = Target(baseURL: URL(string: server.baseURL)!)
        let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
        var request = Request(url: URL(string: server.baseURL + "/built?x=1")!, method: .put)
        request.httpBody = Data("body".utf8)
        let response = try await withCheckedThrowingContinuation { continuation in
            provider.perform(target, endpoint: endpoint, built: .success(request)) { continuation.resume(with: $0) }
        }
        let echo = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        XCTAssertEqual(echo?["method"] as? String, "PUT")
        XCTAssertEqual(echo?["uri"] as? String, "/built?x=1")
        XCTAssertEqual(echo?["body"] as? String, "body")
        XCTAssertEqual(log.all, ["a.prepare", "a.willSend(1)", "a.didReceive(200)", "a.process"])

        let failed = MoyaError.requestMapping("nowhere")
        let result = await withCheckedContinuation { continuation in
            provider.perform(target, endpoint: endpoint, built: .failure(failed)) { continuation.resume(returning: $0) }
        }
        guard case .failure(.requestMapping("nowhere")) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(log.all.suffix(1), ["a.process"])
    }

    func testAnEncodableBodyAlwaysHasTheSameBytes() throws {
        struct Payload: Encodable, Sendable {
            var zeta = 1
            var alpha = "a/b"
            var middle = [3, 2]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for task in [
            MoyaCore.Task.requestJSONEncodable(Payload()), .requestCustomJSONEncodable(Payload(), encoder: encoder),
        ] {
            var target = Target(baseURL: base, method: .post)
            target.task = task
            let bodies = try (0..<20).map { _ in
                try MoyaProvider.defaultEndpointMapping(for: target).urlRequest().httpBody
            }
            XCTAssertEqual(Set(bodies).count, 1)
        }
        var target = Target(baseURL: base, method: .post)
        target.task = .requestCustomJSONEncodable(Payload(), encoder: encoder)
        let body = try MoyaProvider.defaultEndpointMapping(for: target).urlRequest().httpBody
        XCTAssertEqual(body.map { String(decoding: $0, as: UTF8.self) }, #"{"alpha":"a/b","middle":[3,2],"zeta":1}"#)
    }

    func testASessionDroppedWithoutShutdownClosesItsClients() async throws {
        let server = try TestServer()
        defer { server.stop() }
        for _ in 0..<3 {
            // Each provider's session goes out of scope with its HTTP client still open.
            let provider = MoyaProvider<Target>(session: Session())
            let response = try await provider.request(Target(baseURL: URL(string: server.baseURL)!))
            XCTAssertEqual(response.statusCode, 200)
        }
    }

    func testStubbedErrorStatusFailsValidationAndCarriesTheResponse() async {
        let provider = MoyaProvider<Target>(
            endpointClosure: { target in
                MoyaProvider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .networkResponse(400, Data("bad".utf8))
                })
            },
            stubClosure: MoyaProvider.immediatelyStub)
        do {
            _ = try await provider.request(Target(baseURL: base))
            XCTFail("400 must fail successCodes")
        } catch {
            guard case .statusCode(let response) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(response.statusCode, 400)
            XCTAssertEqual(response.data, Data("bad".utf8))
        }
        var accepting = Target(baseURL: base)
        accepting.validationType = .customCodes([400])
        let accepted = try? await provider.request(accepting)
        XCTAssertEqual(accepted?.statusCode, 400)
    }

    func testDelayedStubWaitsAndCancellingFailsItForPlugins() async throws {
        let log = Recorder.SharedLog()
        let provider = MoyaProvider<Target>(stubClosure: MoyaProvider.delayedStub(5), plugins: [Recorder("a", log)])
        let finished = expectation(description: "completion")
        let result = Mutex<Result<Response, MoyaError>?>(nil)
        let cancellable = provider.request(Target(baseURL: base)) { outcome in
            result.withLock { $0 = outcome }
            finished.fulfill()
        }
        // Cancelled during the stub's five seconds.
        cancellable.cancel()
        await fulfillment(of: [finished], timeout: 2)
        XCTAssertTrue(cancellable.isCancelled)
        guard case .failure(.underlying(let error, _))? = result.withLock({ $0 }) else { return XCTFail() }
        XCTAssertEqual((error as? NetworkError)?.code, .cancelled)
        XCTAssertEqual(log.all.last, "a.process")
        XCTAssertTrue(log.all.contains("a.didReceive(The request failed: the request was cancelled.)"), "\(log.all)")
    }

    func testLiveRequestAccessTokenAndCancellation() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = Session()
        let provider = MoyaProvider<Target>(session: session, plugins: [AccessTokenPlugin { _ in "tok" }])
        var target = Target(baseURL: URL(string: server.baseURL)!)
        target.authorizationType = .bearer
        target.task = .requestParameters(parameters: ["q": "a b"], encoding: URLEncoding.default)
        let response = try await provider.request(target)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        XCTAssertEqual(echo["uri"] as? String, "/echo?q=a%20b")
        let headers = try XCTUnwrap(echo["headers"] as? [[String]])
        XCTAssertTrue(headers.contains(["Authorization", "Bearer tok"]), "\(headers)")
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        XCTAssertEqual(try response.mapJSON()["method"], .string("GET"))
        XCTAssertEqual(try response.mapString(atKeyPath: "uri"), "/echo?q=a%20b")

        var slow = Target(baseURL: URL(string: server.baseURL)!)
        slow.path = "/slow/5000"
        let task = _Concurrency.Task { try await provider.request(slow) }
        XCTAssertTrue(server.waitForRequests(to: "/slow/"))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled request must fail")
        } catch let error as MoyaError {
            guard case .underlying(let underlying, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual((underlying as? NetworkError)?.code, .cancelled, "\(underlying)")
        }
        await session.shutdown()
    }

    /// The name of the calling thread; NIO names its event-loop threads `NIO-ELT-…`.
    static func threadName() -> String {
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The names of this process's threads.
    static func threadNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").map { task in
            try String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func testASessionWithItsOwnLoopRunsTransfersOnItAndStopsIt() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let target = Target(baseURL: URL(string: server.baseURL)!, path: "/bytes/100000")
        let threads = Recorder.SharedLog()
        let progress: ProgressHandler = { _ in threads.append(Self.threadName()) }

        var configuration = Session.Configuration()
        configuration.eventLoopThreads = 1
        let session = Session(configuration: configuration)
        let provider = MoyaProvider<Target>(session: session)
        let awaited = try await provider.result(for: target, progress: progress).get()
        let completed = await withCheckedContinuation { continuation in
            provider.request(target, progress: progress) { continuation.resume(returning: $0) }
        }
        XCTAssertEqual(awaited.data.count, 100_000)
        XCTAssertEqual(try completed.get().data.count, 100_000)
        let loops = Set(threads.all)
        XCTAssertEqual(loops.count, 1, "every chunk, awaited or not, is handled on the one loop: \(loops)")
        let loop = try XCTUnwrap(loops.first)
        XCTAssertTrue(loop.hasPrefix("NIO-ELT-"), loop)
        XCTAssertTrue(try Self.threadNames().contains(loop))
        await session.shutdown()
        XCTAssertFalse(try Self.threadNames().contains(loop), "shutdown stops the session's loop")

        let shared = Session()
        threads.entries.withLock { $0.removeAll() }
        _ = try await MoyaProvider<Target>(session: shared).result(for: target, progress: progress).get()
        XCTAssertFalse(threads.all.isEmpty)
        XCTAssertFalse(
            threads.all.contains { $0.hasPrefix("NIO-ELT-") }, "by default, chunks are handled off the loops")
        await shared.shutdown()
    }

    func testEncodableBodiesOverTheNetwork() async throws {
        struct Payload: Encodable, Sendable {
            var name = "Ann"
            var path = "a/b"
        }
        let server = try TestServer()
        defer { server.stop() }
        let session = Session()
        let provider = MoyaProvider<Target>(session: session)
        var target = Target(baseURL: URL(string: server.baseURL)!, method: .post)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        target.task = .requestCustomJSONEncodable(Payload(), encoder: encoder)
        let custom = try JSONSerialization.jsonObject(with: try await provider.request(target).data) as? [String: Any]
        XCTAssertEqual(custom?["body"] as? String, #"{"name":"Ann","path":"a/b"}"#)
        let headers = custom?["headers"] as? [[String]] ?? []
        XCTAssertTrue(headers.contains(["Content-Type", "application/json"]), "\(headers)")

        target.task = .requestJSONEncodable(
            JSONValue.object([(key: "z", value: .integer(1)), (key: "a", value: .null)]))
        let ordered = try JSONSerialization.jsonObject(with: try await provider.request(target).data) as? [String: Any]
        XCTAssertEqual(ordered?["body"] as? String, #"{"z":1,"a":null}"#)
        await session.shutdown()
    }

    func testCompressedResponsesAreDecompressed() async throws {
        let server = try TestServer(compressing: true)
        defer { server.stop() }
        let session = Session()
        let provider = MoyaProvider<Target>(session: session)
        let response = try await provider.request(Target(baseURL: URL(string: server.baseURL)!, path: "/bytes/50000"))
        let encoding = response.headers["Content-Encoding"]
        XCTAssertTrue(
            encoding == "gzip" || encoding == "deflate",
            "the server compressed the body: \(String(describing: encoding))")
        XCTAssertEqual(response.data.count, 50_000)
        XCTAssertEqual(response.data.prefix(4), Data([0, 1, 2, 3]))
        await session.shutdown()
    }

    func testTrackInflightsSharesOneRequest() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = Session()
        let provider = MoyaProvider<Target>(session: session, trackInflights: true)
        let shared = Target(baseURL: URL(string: server.baseURL)!, path: "/slow/200")
        async let first = provider.request(shared)
        async let second = provider.request(shared)
        let (a, b) = try await (first, second)
        XCTAssertTrue(a === b, "both callers get the one shared response")
        await session.shutdown()
    }

    func testEndpointAddingAndReplacing() throws {
        let endpoint = MoyaProvider<Target>.defaultEndpointMapping(for: Target(baseURL: base))
        XCTAssertEqual(endpoint.adding(newHTTPHeaderFields: [:]).httpHeaderFields, ["X-A": "1"])
        XCTAssertEqual(
            endpoint.adding(newHTTPHeaderFields: ["x-a": "2", "B": "3"]).httpHeaderFields, ["x-a": "2", "B": "3"])
        let replaced = endpoint.replacing(task: .requestData(Data("d".utf8)))
        XCTAssertEqual(try replaced.urlRequest().httpBody, Data("d".utf8))
        XCTAssertThrowsError(
            try Endpoint(
                url: "http://[::1", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .get,
                task: .requestPlain, httpHeaderFields: nil
            ).urlRequest())
    }

    func testResponseFiltersAndMapping() throws {
        let response = Response(statusCode: 302, data: Data(#"{"user":{"id":7,"name":"Ann","tags":["x"]}}"#.utf8))
        XCTAssertThrowsError(try response.filterSuccessfulStatusCodes())
        XCTAssertNoThrow(try response.filterSuccessfulStatusAndRedirectCodes())
        XCTAssertNoThrow(try response.filter(statusCodes: [302].min()!...302))
        XCTAssertEqual(try response.mapString(atKeyPath: "user.name"), "Ann")
        XCTAssertEqual(try response.mapString(atKeyPath: "user.tags.0"), "x")
        XCTAssertThrowsError(try response.mapString(atKeyPath: "user.id"))
        XCTAssertEqual(try response.map(Int.self, atKeyPath: "user.id"), 7, "a scalar at a key path decodes")
        struct User: Decodable, Equatable { var id: Int; var name: String }
        XCTAssertEqual(try response.map(User.self, atKeyPath: "user"), User(id: 7, name: "Ann"))
        XCTAssertThrowsError(try Response(statusCode: 200, data: Data()).mapJSON())
        XCTAssertEqual(try Response(statusCode: 200, data: Data()).mapJSON(failsOnEmptyData: false), .null)
        for error in [MoyaError.jsonMapping(response), .requestMapping("x"), .statusCode(response)] {
            XCTAssertTrue(error.errorDescription.hasSuffix("."), error.errorDescription)
        }
    }

    func testLoggerAndActivityPluginsRedactSecrets() async throws {
        let lines = Mutex<[String]>([])
        let activity = Mutex<[NetworkActivityChangeType]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(
                output: { line in lines.withLock { $0.append(line) } },
                logOptions: [
                    .requestMethod, .requestHeaders, .requestBody, .formatRequestAscURL, .successResponseBody,
                ],
                redactor: Redactor(secretHeaders: ["X-Api-Key"], secretValues: ["hunter2"])))
        let provider = MoyaProvider<Target>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [
                AccessTokenPlugin { _ in "tok" }, logger,
                NetworkActivityPlugin { change, _ in activity.withLock { $0.append(change) } },
            ])
        var target = Target(baseURL: base)
        target.authorizationType = .bearer
        target.headers = ["X-Api-Key": "k3y", "Cookie": "session=1"]
        target.task = .requestData(Data(#"{"password":"hunter2"}"#.utf8))
        _ = try await provider.request(target)
        let log = lines.withLock { $0.joined(separator: "\n") }
        XCTAssertTrue(log.contains("Request: GET http://127.0.0.1:1/echo"), log)
        XCTAssertTrue(log.contains("Authorization: ••••"), log)
        XCTAssertTrue(log.contains("X-Api-Key: ••••"), log)
        XCTAssertTrue(log.contains("Cookie: ••••"), log)
        XCTAssertTrue(log.contains(#"Request body: {"password":"••••"}"#), log)
        XCTAssertTrue(log.contains("curl -X GET "), log)
        XCTAssertTrue(log.contains("-H 'Authorization: ••••'"), log)
        XCTAssertTrue(log.contains("Response: 200 (6 bytes"), log)
        for secret in ["tok", "k3y", "session=1", "hunter2"] {
            XCTAssertFalse(log.contains(secret), "\(secret) leaked: \(log)")
        }
        XCTAssertEqual(activity.withLock { $0 }, [.began, .ended])
    }

    func testMethodSupportsMultipart() {
        XCTAssertEqual(Method.allKnown.filter(\.supportsMultipart), [.post, .put, .patch, .connect])
    }
}
