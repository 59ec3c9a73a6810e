import Moya
import TestSupport
import XCTest

/// A target built in place, for one request against the in-process server.
struct Call: TargetType, AccessTokenAuthorizable {
    var baseURL: URL
    var path: String
    var method: Moya.Method = .get
    var task: Task = .requestPlain
    var headers: [String: String]? = nil
    var validationType: ValidationType = .none
    var sampleData = Data("sample".utf8)
    var authorizationType: AuthorizationType? = nil

    init(_ server: TestServer, _ path: String) {
        baseURL = URL(string: server.baseURL) ?? URL(fileURLWithPath: "/")
        self.path = path
    }
}

/// What the server's echo route answers: the request as it arrived.
struct Echo: Decodable {
    let method: String
    let uri: String
    let headers: [[String]]
    let body: String

    func values(of name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap(\.last)
    }
}

/// Records each hook in the order the provider calls it.
final class RecordingPlugin: PluginType, @unchecked Sendable {
    // Written by one request's hooks, one after another; read once the request is over.
    let name: String
    let log: HookLog

    init(_ name: String, log: HookLog) {
        self.name = name
        self.log = log
    }

    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        log.append("\(name).prepare")
        var request = request
        request.addValue(name, forHTTPHeaderField: "X-Prepared-By")
        return request
    }

    func willSend(_ request: RequestType, target: TargetType) {
        log.append("\(name).willSend \(request.request?.value(forHTTPHeaderField: "X-Prepared-By") ?? "-")")
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        log.append("\(name).didReceive \((try? result.get().response?.statusCode).flatMap { $0 } ?? 0)")
    }

    func process(_ result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> {
        log.append("\(name).process")
        guard case .success(let response) = result else { return result }
        return .success(
            Response(
                statusCode: response.statusCode, data: response.data + Data(" \(name)".utf8),
                request: response.request, response: response.response))
    }
}

/// Lines appended from any thread.
final class HookLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    var lines: [String] { lock.withLock { entries } }
}

final class MoyaBehaviourTests: XCTestCase {
    // MARK: - Requests and plugins

    func testPluginsSeeFoundationTypesInMoyasOrder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let log = HookLog()
        let provider = MoyaProvider<Call>(plugins: [RecordingPlugin("a", log: log), RecordingPlugin("b", log: log)])
        let response = try await provider.request(Call(server, "/echo"))
        XCTAssertEqual(
            log.lines,
            [
                "a.prepare", "b.prepare", "a.willSend a,b", "b.willSend a,b", "a.didReceive 200", "b.didReceive 200",
                "a.process", "b.process",
            ])
        let echoed = String(decoding: response.data, as: UTF8.self)
        XCTAssertTrue(echoed.hasSuffix(" a b"), echoed)
        let echo = try JSONDecoder().decode(Echo.self, from: response.data.dropLast(4))
        XCTAssertEqual(echo.values(of: "X-Prepared-By"), ["a,b"])
        XCTAssertEqual(response.response?.statusCode, 200)
        XCTAssertEqual(response.response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(response.request?.url?.absoluteString, server.baseURL + "/echo")
    }

    func testAValidationFailureIsUnderlyingStatusCodeWithTheResponse() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var target = Call(server, "/status/503")
        target.validationType = .successCodes
        let result: Result<Response, MoyaError> = await MoyaProvider<Call>().request(target)
        guard case .failure(.underlying(MoyaError.statusCode(let inner), let response?)) = result else {
            return XCTFail("expected .underlying(.statusCode), got \(result)")
        }
        XCTAssertTrue(inner === response)
        XCTAssertEqual(response.statusCode, 503)
        XCTAssertEqual(try response.mapString(), "status 503")
    }

    func testCancellingTheTaskCancelsTheRequestWithNSURLErrorCancelled() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let provider = MoyaProvider<Call>()
        let target = Call(server, "/slow/5000")
        let started = ContinuousClock.now
        let task = _Concurrency.Task { try await provider.request(target) }
        XCTAssertTrue(server.waitForRequests(to: "/slow/"))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch let error as MoyaError {
            guard case .underlying(let underlying as NSError, nil) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(underlying.domain, NSURLErrorDomain)
            XCTAssertEqual(underlying.code, NSURLErrorCancelled)
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
    }

    func testCancellingTheCancellableFailsWithNSURLErrorCancelledOnTheCallbackQueue() throws {
        let server = try TestServer()
        defer { server.stop() }
        let queue = DispatchQueue(label: "moya-tests.callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "callbacks")
        let done = expectation(description: "completion")
        let outcome = HookLog()
        let cancellable = MoyaProvider<Call>(callbackQueue: queue).request(Call(server, "/slow/5000")) { result in
            if case .failure(.underlying(let error as NSError, _)) = result {
                outcome.append("\(error.domain) \(error.code) \(DispatchQueue.getSpecific(key: key) ?? "elsewhere")")
            }
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequests(to: "/slow/"))
        cancellable.cancel()
        XCTAssertTrue(cancellable.isCancelled)
        wait(for: [done], timeout: 3)
        XCTAssertEqual(outcome.lines, ["\(NSURLErrorDomain) \(NSURLErrorCancelled) callbacks"])
    }

    func testADelayedStubWaitsThenAnswersOnTheCallbackQueue() throws {
        let queue = DispatchQueue(label: "moya-tests.delayed")
        let done = expectation(description: "completion")
        let provider = MoyaProvider<Call>(stubClosure: MoyaProvider.delayedStub(0.3), callbackQueue: queue)
        let started = ContinuousClock.now
        var target = Call(try TestServer.unreachable(), "/never")
        target.sampleData = Data("later".utf8)
        let log = HookLog()
        provider.request(target) { result in
            log.append((try? result.get().mapString()) ?? "failed")
            done.fulfill()
        }
        XCTAssertEqual(log.lines, [])
        wait(for: [done], timeout: 3)
        XCTAssertEqual(log.lines, ["later"])
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
    }

    func testALiveRequestCompletesOnTheMainQueueByDefault() throws {
        let server = try TestServer()
        defer { server.stop() }
        let done = expectation(description: "completion")
        let log = HookLog()
        MoyaProvider<Call>().request(Call(server, "/echo")) { result in
            log.append("\(Thread.isMainThread) \((try? result.get().statusCode) ?? 0)")
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(log.lines, ["true 200"])
    }

    func testIdenticalEndpointsInFlightShareOneRequest() throws {
        let server = try TestServer()
        defer { server.stop() }
        let log = HookLog()
        let queue = DispatchQueue(label: "moya-tests.inflight")
        let provider = MoyaProvider<Call>(
            callbackQueue: queue, plugins: [RecordingPlugin("p", log: log)], trackInflights: true)
        let target = Call(server, "/slow/300")
        let first = expectation(description: "first")
        let second = expectation(description: "second")
        let bodies = HookLog()
        provider.request(target) { result in
            bodies.append((try? result.get().mapString()) ?? "failed")
            first.fulfill()
        }
        provider.request(target) { result in
            bodies.append((try? result.get().mapString()) ?? "failed")
            second.fulfill()
        }
        XCTAssertEqual(provider.inflightRequests.values.first?.count, 2)
        wait(for: [first, second], timeout: 5)
        XCTAssertEqual(bodies.lines, ["slow p", "slow p"])
        XCTAssertEqual(log.lines.filter { $0.hasPrefix("p.willSend") }.count, 1)
        XCTAssertTrue(provider.inflightRequests.isEmpty)
    }

    func testProgressIsReportedAsTheBodyArrivesThenWithTheResponse() throws {
        let server = try TestServer()
        defer { server.stop() }
        let queue = DispatchQueue(label: "moya-tests.progress")
        let done = expectation(description: "completion")
        let reports = HookLog()
        MoyaProvider<Call>()
            .request(
                Call(server, "/bytes/200000"), callbackQueue: queue,
                progress: { report in
                    reports.append("\(report.progress) \(report.completed) \(report.response?.data.count ?? -1)")
                },
                completion: { _ in done.fulfill() })
        wait(for: [done], timeout: 5)
        let lines = reports.lines
        XCTAssertEqual(lines.last, "1.0 true 200000")
        let fractions = lines.compactMap { $0.split(separator: " ").first.flatMap { Double($0) } }
        XCTAssertEqual(fractions, fractions.sorted(), "progress only grows")
        XCTAssertGreaterThan(lines.count, 1)
    }

    // MARK: - Stubs

    func testASampleResponseIsReturnedAsTheSameObject() throws {
        let http = try XCTUnwrap(
            HTTPURLResponse(
                url: URL(fileURLWithPath: "/"), statusCode: 201, httpVersion: "HTTP/1.1",
                headerFields: ["ETag": "\"v1\""]))
        let provider = MoyaProvider<Call>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: { .response(http, Data("made".utf8)) },
                    method: target.method, task: target.task, httpHeaderFields: target.headers)
            }, stubClosure: MoyaProvider.immediatelyStub)
        var received: Response?
        provider.request(Call(try TestServer.unreachable(), "/users")) { received = try? $0.get() }
        let response = try XCTUnwrap(received)
        XCTAssertTrue(response.response === http)
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(try response.mapString(), "made")
    }

    func testASampleNetworkErrorIsTheUnderlyingError() throws {
        let failure = NSError(domain: "tests", code: 42, userInfo: [NSLocalizedDescriptionKey: "no network here"])
        let provider = MoyaProvider<Call>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString, sampleResponseClosure: { .networkError(failure) },
                    method: target.method, task: target.task, httpHeaderFields: nil)
            }, stubClosure: MoyaProvider.immediatelyStub)
        var received: MoyaError?
        provider.request(Call(try TestServer.unreachable(), "/")) { result in
            if case .failure(let error) = result { received = error }
        }
        guard case .underlying(let error as NSError, nil)? = received else {
            return XCTFail("\(String(describing: received))")
        }
        XCTAssertTrue(error === failure)
        XCTAssertEqual(received?.localizedDescription, "no network here")
    }

    // MARK: - Endpoints

    func testACompositeTaskWithAQueryBodyEncodingThrowsInsteadOfStopping() throws {
        let endpoint = Endpoint(
            url: "https://example.com/items", sampleResponseClosure: { .networkResponse(200, Data()) },
            method: .post,
            task: .requestCompositeParameters(
                bodyParameters: ["a": 1], bodyEncoding: URLEncoding.queryString, urlParameters: ["b": 2]),
            httpHeaderFields: nil)
        XCTAssertThrowsError(try endpoint.urlRequest()) { error in
            guard case MoyaError.parameterEncoding? = error as? MoyaError else { return XCTFail("\(error)") }
        }
        let body = endpoint.replacing(
            task: .requestCompositeParameters(
                bodyParameters: ["a": 1], bodyEncoding: URLEncoding.httpBody, urlParameters: ["b": 2]))
        let request = try body.urlRequest()
        XCTAssertEqual(request.url?.absoluteString, "https://example.com/items?b=2")
        XCTAssertEqual(request.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1")
        XCTAssertEqual(
            request.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testEndpointsAreEqualAndHashWhenTheyBuildTheSameRequest() throws {
        func endpoint(_ task: Task) -> Endpoint {
            Endpoint(
                url: "https://example.com/a", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .post,
                task: task, httpHeaderFields: ["X": "1"])
        }
        let json = endpoint(.requestParameters(parameters: ["k": "v"], encoding: JSONEncoding.default))
        XCTAssertEqual(json, endpoint(.requestParameters(parameters: ["k": "v"], encoding: JSONEncoding.default)))
        XCTAssertNotEqual(json, endpoint(.requestParameters(parameters: ["k": "w"], encoding: JSONEncoding.default)))
        XCTAssertNotEqual(json, json.adding(newHTTPHeaderFields: ["Y": "2"]))
        let part = MultipartFormBodyPart(provider: .data(Data("x".utf8)), name: "f")
        let other = MultipartFormBodyPart(provider: .data(Data("y".utf8)), name: "f")
        XCTAssertEqual(endpoint(.uploadMultipartFormData([part])), endpoint(.uploadMultipartFormData([part])))
        XCTAssertNotEqual(endpoint(.uploadMultipartFormData([part])), endpoint(.uploadMultipartFormData([other])))
        let set: Set<Endpoint> = [
            json, endpoint(.requestParameters(parameters: ["k": "v"], encoding: JSONEncoding.default)),
        ]
        XCTAssertEqual(set.count, 1)
    }

    // MARK: - Responses and errors

    func testResponsesMapToFoundationJSONStringsAndDecodables() throws {
        let response = Response(statusCode: 200, data: Data(#"{"user":{"name":"Ann","age":7}}"#.utf8))
        let json = try XCTUnwrap(response.mapJSON() as? [String: Any])
        XCTAssertEqual((json["user"] as? [String: Any])?["name"] as? String, "Ann")
        XCTAssertEqual(try response.mapString(atKeyPath: "user.name"), "Ann")
        XCTAssertEqual(try response.map(Int.self, atKeyPath: "user.age"), 7)
        XCTAssertThrowsError(try response.filterSuccessfulStatusCodes().filter(statusCode: 201))
        XCTAssertTrue(try Response(statusCode: 200, data: Data()).mapJSON(failsOnEmptyData: false) is NSNull)
        XCTAssertThrowsError(try Response(statusCode: 200, data: Data("{".utf8)).mapJSON()) { error in
            guard case MoyaError.jsonMapping? = error as? MoyaError else { return XCTFail("\(error)") }
        }
    }

    func testMoyaErrorCarriesItsDescriptionAndUnderlyingErrorInUserInfo() {
        let underlying = NSError(domain: "tests", code: 7, userInfo: [NSLocalizedDescriptionKey: "it broke"])
        let error = MoyaError.parameterEncoding(underlying) as NSError
        XCTAssertEqual(error.domain, "Moya.MoyaError")
        XCTAssertEqual(error.localizedDescription, "Failed to encode parameters for URLRequest. it broke")
        XCTAssertTrue((error.userInfo[NSUnderlyingErrorKey] as? NSError) === underlying)
        let status = MoyaError.statusCode(Response(statusCode: 404, data: Data())) as NSError
        XCTAssertEqual(
            status.userInfo[NSLocalizedDescriptionKey] as? String, "Status code didn't fall within the given range.")
        XCTAssertNil(status.userInfo[NSUnderlyingErrorKey])
    }

    // MARK: - Plugins

    func testAccessTokensReachTheServerThroughAMultiTarget() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var target = Call(server, "/echo")
        target.authorizationType = .bearer
        let plugin = AccessTokenPlugin { _ in "t0ken" }
        let provider = MoyaProvider<MultiTarget>(plugins: [plugin])
        let echo = try await provider.request(.target(target)).map(Echo.self)
        XCTAssertEqual(echo.values(of: "Authorization"), ["Bearer t0ken"])
        target.authorizationType = nil
        let plain = try await provider.request(MultiTarget(target)).map(Echo.self)
        XCTAssertEqual(plain.values(of: "Authorization"), [])
    }

    func testACredentialReachesTheServerAsBasicAuthentication() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let plugin = CredentialsPlugin { _ in URLCredential(user: "ann", password: "pw", persistence: .none) }
        let echo = try await MoyaProvider<Call>(plugins: [plugin]).request(Call(server, "/echo")).map(Echo.self)
        XCTAssertEqual(echo.values(of: "Authorization"), ["Basic " + Data("ann:pw".utf8).base64EncodedString()])
    }

    func testNetworkActivityBeginsAndEnds() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let log = HookLog()
        let plugin = NetworkActivityPlugin { change, target in log.append("\(change) \(target.path)") }
        _ = try await MoyaProvider<Call>(plugins: [plugin]).request(Call(server, "/echo"))
        XCTAssertEqual(log.lines, ["began /echo", "ended /echo"])
    }

    func testTheLoggerPrintsMoyasLinesWithCredentialsMasked() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let log = HookLog()
        let logger = NetworkLoggerPlugin(
            configuration: .init(
                formatter: .init(entry: { identifier, message, _ in "\(identifier): \(message)" }),
                output: { _, items in items.forEach(log.append) }, logOptions: .verbose))
        var target = Call(server, "/status/201")
        target.method = .put
        target.task = .requestData(Data("hello".utf8))
        target.headers = ["Authorization": "Bearer s3cret-token"]
        _ = try await MoyaProvider<Call>(plugins: [logger]).request(target)
        let url = server.baseURL + "/status/201"
        var lines = log.lines
        // The session's headers come from a dictionary, in no fixed order.
        let headers = lines.count > 1 ? lines.remove(at: 1) : ""
        XCTAssertTrue(headers.hasPrefix("Request Headers: ["), headers)
        XCTAssertTrue(headers.contains(#""Authorization": "••••""#), headers)
        XCTAssertTrue(headers.contains(#""User-Agent": ""#), headers)
        XCTAssertEqual(
            lines,
            [
                "Request: \(url)",
                "Request Body: hello",
                "HTTP Request Method: PUT",
                "Response: <HTTPURLResponse> { URL: \(url) } { Status Code: 201, Headers [\"Content-Length\": \"10\"] }",
                "Response Body: status 201",
            ])
        XCTAssertFalse(log.lines.joined().contains("s3cret"))
    }

    // MARK: - Bodies

    func testAMultipartFormIsUploaded() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var target = Call(server, "/echo")
        target.method = .post
        target.task = .uploadMultipartFormData(
            MultipartFormData(
                boundary: "b0undary",
                parts: [
                    MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "name"),
                    MultipartFormBodyPart(
                        provider: .data(Data("a,b".utf8)), name: "file", fileName: "rows.csv", mimeType: "text/csv"),
                ]))
        let echo = try await MoyaProvider<Call>().request(target).map(Echo.self)
        XCTAssertEqual(echo.values(of: "Content-Type"), ["multipart/form-data; boundary=b0undary"])
        XCTAssertEqual(
            echo.body,
            "--b0undary\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn\r\n"
                + "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"rows.csv\"\r\n"
                + "Content-Type: text/csv\r\n\r\na,b\r\n--b0undary--\r\n")
    }

    func testADownloadIsMovedToItsDestination() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moya-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("nested/bytes.bin")
        var target = Call(server, "/bytes/300")
        target.task = .downloadDestination { _, response in
            XCTAssertEqual(response.statusCode, 200)
            return (file, [.createIntermediateDirectories, .removePreviousFile])
        }
        let response = try await MoyaProvider<Call>().request(target)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try Data(contentsOf: file), Data((0..<300).map { UInt8($0 % 251) }))
    }
}

extension TestServer {
    /// A server that is stopped at once: for stubbed targets, which must never reach one.
    static func unreachable() throws -> TestServer {
        let server = try TestServer()
        server.stop()
        return server
    }
}
