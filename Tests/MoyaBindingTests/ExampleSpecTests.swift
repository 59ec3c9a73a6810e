import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// Compiles every bundled spec and checks the targets they produce.
final class ExampleSpecTests: XCTestCase {
    let library = SpecLibrary(searchPaths: [specsDirectory], compiler: SpecCompiler(environment: [:]))

    func service(_ name: String) throws -> ServiceSpec {
        try library.service(named: name)
    }

    func testEveryBundledSpecCompiles() throws {
        let catalog = try library.loadAll()
        XCTAssertEqual(catalog.diagnostics.map(\.description), [])
        XCTAssertEqual(catalog.services.map(\.name), ["github", "httpbin", "myservice", "translator"])
    }

    func testMyServiceShowUserBindsTheIdIntoPathAndSample() throws {
        let service = try service("myservice")
        let spec = try XCTUnwrap(service.target(named: "showUser"))
        XCTAssertEqual(spec.params.map(\.name), ["id"])
        XCTAssertEqual(spec.params.first?.type, .int)
        let target = try service.resolve(spec, with: CallOptions(arguments: ["id": .int(1)]))
        XCTAssertEqual(URL(target: target).absoluteString, "https://api.myservice.com/users/1")
        XCTAssertEqual(target.method, .get)
        XCTAssertEqual(target.validationType, .successCodes)
        XCTAssertEqual(target.headers, ["Accept": "application/json"])
        XCTAssertEqual(target.authorization, "Bearer demo-token")
        XCTAssertEqual(
            String(decoding: target.sampleData, as: UTF8.self), #"{"id":1,"first_name":"Harry","last_name":"Potter"}"#)
        guard case .requestPlain = target.task else { return XCTFail("expected requestPlain, got \(target.task)") }
    }

    func testMyServiceCreateUserUsesJSONEncodingAndTheDefaultLastName() throws {
        let service = try service("myservice")
        let spec = try XCTUnwrap(service.target(named: "createUser"))
        let target = try service.resolve(spec, with: CallOptions(arguments: ["firstName": .string("James")]))
        XCTAssertEqual(target.method, .post)
        guard case .requestParameters(let parameters, let encoding) = target.task else {
            return XCTFail("expected requestParameters, got \(target.task)")
        }
        XCTAssertEqual(parameters["first_name"] as? JSONValue, .string("James"))
        XCTAssertEqual(parameters["last_name"] as? JSONValue, .string("Potter"))
        XCTAssertEqual(encoding as? JSONEncoding, .default)
        guard case .response(let head, let body) = target.sampleResponse else { return XCTFail() }
        XCTAssertEqual(head.statusCode, 201)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"id":100,"first_name":"James","last_name":"Potter"}"#)
    }

    func testMyServiceUpdateUserPutsParametersInTheQuery() throws {
        let service = try service("myservice")
        let spec = try XCTUnwrap(service.target(named: "updateUser"))
        let target = try service.resolve(
            spec,
            with: CallOptions(arguments: [
                "id": .int(123), "firstName": .string("Harry"), "lastName": .string("Potter"),
            ]))
        guard case .requestParameters(let parameters, let encoding) = target.task else { return XCTFail() }
        XCTAssertEqual(encoding as? URLEncoding, .queryString)
        XCTAssertEqual(URLEncoding.queryString.query(parameters), "first_name=Harry&last_name=Potter")
    }

    func testMyServiceShowAccountsReadsItsSampleFileAndNamedSamples() throws {
        let service = try service("myservice")
        let spec = try XCTUnwrap(service.target(named: "showAccounts"))
        let target = try service.resolve(spec, with: CallOptions())
        XCTAssertTrue(String(decoding: target.sampleData, as: UTF8.self).contains("Checking"))
        let unauthorized = try service.resolve(spec, with: CallOptions(sample: "unauthorized"))
        guard case .response(let head, let body) = unauthorized.sampleResponse else { return XCTFail() }
        XCTAssertEqual(head, ResponseHead(statusCode: 401, headers: ["Content-Type": "application/json"]))
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"message":"Bad credentials"}"#)
        let offline = try service.resolve(spec, with: CallOptions(sample: "offline"))
        guard case .networkError(let error as NetworkError) = offline.sampleResponse else { return XCTFail() }
        XCTAssertEqual(error.code, .notConnectedToInternet)
        XCTAssertThrowsError(try service.resolve(spec, with: CallOptions(sample: "missing")))
    }

    func testMyServiceStagingEnvironmentOverridesTheBaseURL() throws {
        let service = try service("myservice")
        let target = try service.resolve(
            try XCTUnwrap(service.target(named: "zen")), with: CallOptions(environment: "staging"))
        XCTAssertEqual(URL(target: target).absoluteString, "https://staging.myservice.com/zen")
        XCTAssertNil(target.authorization, "zen sets auth: none")
    }

    func testTranslatorKeepsTheDeclaredQueryOrderAndRepeatsKeys() throws {
        let service = try service("translator")
        let spec = try XCTUnwrap(service.target(named: "translateQuery"))
        let target = try service.resolve(
            spec, with: CallOptions(arguments: ["from": .string("en"), "to": .array([.string("de"), .string("ja")])]))
        XCTAssertEqual(
            URL(target: target).absoluteString,
            "https://api.cognitive.microsofttranslator.com/translate?api-version=3.0&from=en&to=de&to=ja")
        guard case .requestCompositeData(let body, let query) = target.task else { return XCTFail() }
        XCTAssertEqual(body, Data("[]".utf8))
        XCTAssertTrue(query.isEmpty)
        XCTAssertEqual(target.headers?["Content-Type"], "application/json")
    }

    func testTranslatorEnumTakesTheKeyAndSendsTheValue() throws {
        let service = try service("translator")
        let spec = try XCTUnwrap(service.target(named: "translateQuery"))
        let from = try XCTUnwrap(spec.param(named: "from"))
        XCTAssertEqual(try from.parse("german"), .string("de"))
        XCTAssertThrowsError(try from.parse("de"))
        XCTAssertEqual(from.defaultValue, .string("en"))
        let target = try service.resolve(
            try XCTUnwrap(service.target(named: "translate")),
            with: CallOptions(arguments: ["texts": .array([.string("Test")])]))
        guard case .requestJSONEncodable(let value) = target.task else { return XCTFail() }
        XCTAssertEqual(value as? JSONValue, .array([.string("Test")]))
    }

    func testGithubUserProfileEncodesTheNameAsOnePathSegment() throws {
        let service = try service("github")
        let spec = try XCTUnwrap(service.target(named: "userProfile"))
        let target = try service.resolve(spec, with: CallOptions(arguments: ["name": .string("../a b/c?")]))
        XCTAssertEqual(URL(target: target).absoluteString, "https://api.github.com/users/..%2Fa%20b%2Fc%3F")
        let climb = try service.resolve(spec, with: CallOptions(arguments: ["name": .string("..")]))
        XCTAssertEqual(URL(target: climb).absoluteString, "https://api.github.com/users/%2E%2E")
    }

    func testHttpbinBaseURLComesFromTheEnvironment() throws {
        let library = SpecLibrary(
            searchPaths: [specsDirectory], compiler: SpecCompiler(environment: ["HTTPBIN_URL": "http://127.0.0.1:9999"])
        )
        let service = try library.service(named: "httpbin")
        XCTAssertEqual(service.baseURL, "http://127.0.0.1:9999")
        XCTAssertFalse(
            service.environmentSecrets.contains(value: "http://127.0.0.1:9999"), "a base URL is not a secret")
        let defaulted = try self.service("httpbin")
        XCTAssertEqual(defaulted.baseURL, "http://127.0.0.1:8080")
    }

    func testMissingRequiredParamAndUnknownParamAreUsageErrors() throws {
        let service = try service("myservice")
        let spec = try XCTUnwrap(service.target(named: "showUser"))
        XCTAssertThrowsError(try service.resolve(spec, with: CallOptions())) { error in
            XCTAssertEqual((error as? ResolveError)?.isUsageError, true)
            XCTAssertTrue("\(error)".contains("needs param 'id'"))
        }
        XCTAssertThrowsError(try service.resolve(spec, with: CallOptions(arguments: ["id": .int(1), "ids": .int(2)]))) {
            error in
            XCTAssertTrue("\(error)".contains("did you mean 'id'?"), "\(error)")
        }
    }
}
