import GeneratedServices
import Moya
import TestSupport
import XCTest

@testable import MoyaCLI

/// `generate swift`: the files it writes for the bundled specs, kept in
/// Tests/Fixtures/generated and compiled against Moya, and the requests they build.
final class GenerateSwiftTests: XCTestCase {
    static let services = [
        "myservice": "Myservice", "github": "Github", "httpbin": "Httpbin", "translator": "Translator",
    ]
    var specs: String { CommandTests.root + "/specs" }

    func testTheGeneratedFilesAreWhatTheCommandWrites() async throws {
        for (service, type) in Self.services.sorted(by: { $0.key < $1.key }) {
            let (status, out, error) = await CommandTests.run([
                "generate", "swift", service, "--specs", specs, "--access", "public",
            ])
            XCTAssertEqual(status, 0, error)
            XCTAssertEqual(error, "")
            let path = CommandTests.root + "/Tests/Fixtures/generated/\(type).swift"
            let golden = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertEqual(
                out, golden,
                "\(path) is out of date: moya-cli generate swift \(service) --access public -o \(path)")
        }
    }

    /// No environment value is written into the file, a token least of all: each is read when
    /// the code runs. The file is the same as with nothing set.
    func testNoEnvironmentValueIsWrittenIntoTheFile() async throws {
        let environment = ["MYSERVICE_TOKEN": "s3cret-from-env", "MYSERVICE_URL": "https://elsewhere.example"]
        let (status, out, error) = await CommandTests.run(
            ["generate", "swift", "myservice", "--specs", specs, "--access", "public"], environment: environment)
        XCTAssertEqual(status, 0, error)
        let golden = CommandTests.root + "/Tests/Fixtures/generated/Myservice.swift"
        XCTAssertEqual(out, try String(contentsOfFile: golden, encoding: .utf8))
    }

    /// Findings 3 and 18: enum values with code in them, names that read the same in Swift,
    /// names Swift reserves, and quotes and `\\(` in samples. The file is Hostile.swift, which
    /// the GeneratedServices target compiles against Moya.
    func testHostileNamesAndValuesGiveAFileThatCompiles() async throws {
        let spec = CommandTests.root + "/Tests/Fixtures/generate/hostile.yaml"
        let (status, out, error) = await CommandTests.run([
            "generate", "swift", "hostile", "--specs", spec, "--access", "public",
        ])
        XCTAssertEqual(status, 0, error)
        let path = CommandTests.root + "/Tests/Fixtures/generated/Hostile.swift"
        XCTAssertEqual(
            out, try String(contentsOfFile: path, encoding: .utf8),
            "\(path) is out of date: moya-cli generate swift hostile --specs \(spec) --access public -o \(path)")
        // Values in capitals are lowerCamelCase cases, acronyms lowered whole.
        XCTAssertEqual([Hostile.Verb.get, .post, .urlPath].map(\.rawValue), ["GET", "POST", "URLPath"])
        // The cases send what the spec says, code and all, as data.
        let target = Hostile.getUser(order: .xFuncInjectedEnumEvil, selfValue: .a, string: .c, uId: 1, uId2: 2)
        let request = try MoyaProvider<Hostile>.defaultEndpointMapping(for: target).urlRequest()
        XCTAssertEqual(
            request.url?.query,
            "a=1&b=2&order=x%0A%09func%20injected%28%29%20%7B%7D%0A%7D%0Aenum%20Evil%20%7B&self=a&string=c")
        XCTAssertEqual(
            String(decoding: Hostile.getUser2.sampleData, as: UTF8.self),
            try String(contentsOfFile: CommandTests.root + "/Tests/Fixtures/generate/quotes.txt", encoding: .utf8))
        XCTAssertEqual(String(decoding: Hostile.pathTarget.sampleData, as: UTF8.self), "\"\"\"\"\n\\(x)\n#\"\n")

        // A JSON body with a query: the members in the order written, as `call` sends them.
        let search = try MoyaProvider<Hostile>.defaultEndpointMapping(
            for: Hostile.search(zeta: "z", alpha: 1, limit: 5)
        ).urlRequest()
        XCTAssertEqual(search.url?.absoluteString, "https://api.example.com/search?limit=5")
        XCTAssertEqual(search.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(search.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"zeta":"z","alpha":1}"#)
        let (sent, dry, _) = await CommandTests.run([
            "call", "hostile.search", "--specs", spec, "--zeta", "z", "--alpha", "1", "--limit", "5", "--dry-run",
        ])
        XCTAssertEqual(sent, 0)
        XCTAssertEqual(
            dry,
            "POST https://api.example.com/search?limit=5\nUser-Agent: moya-cli/0.1.0\nAccept: */*\n"
                + "Content-Type: application/json\n\n" + #"{"zeta":"z","alpha":1}"# + "\n")

        // Cookies: one header, after the spec's own `Cookie`, each value encoded as `call`
        // encodes it; an absent optional one and an unset credential left out.
        let cookies: [(target: Hostile, call: [String], header: String)] = [
            (
                .prefs(theme: "dark mode; x=1", lang: "é"), ["--theme", "dark mode; x=1", "--lang", "é"],
                "seen=1; theme=dark%20mode%3B%20x=1; lang=%C3%A9"
            ),
            (.prefs(theme: "100%\"\\,"), ["--theme", "100%\"\\,"], "seen=1; theme=100%25%22%5C%2C"),
        ]
        for row in cookies {
            XCTAssertEqual(row.target.headers?["Cookie"], row.header)
            let (status, out, error) = await CommandTests.run(
                ["call", "hostile.prefs", "--specs", spec, "--dry-run", "--show-secrets"] + row.call)
            XCTAssertEqual(status, 0, error)
            XCTAssertEqual(out.split(separator: "\n").last.map(String.init), "Cookie: " + row.header)
        }
    }

    /// Models: Zoo.swift is what the command writes for a spec whose targets have schemas;
    /// each sample decodes with its model (recursion boxed, a discriminated `oneOf`, an
    /// `allOf` merged, an `anyOf` with null, names Swift reserves), encodes and decodes again
    /// equal; and a typed call sends its target and decodes the response, from the sample
    /// and from a live server, where the plain `Response` form stays as it was.
    func testModelsDecodeTheSamplesAndTypedCallsDecodeTheirResponses() async throws {
        let spec = CommandTests.root + "/Tests/Fixtures/generate/zoo.yaml"
        let (status, out, error) = await CommandTests.run([
            "generate", "swift", "zoo", "--specs", spec, "--access", "public",
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(error, "")
        let path = CommandTests.root + "/Tests/Fixtures/generated/Zoo.swift"
        XCTAssertEqual(
            out, try String(contentsOfFile: path, encoding: .utf8),
            "\(path) is out of date: moya-cli generate swift zoo --specs \(spec) --access public -o \(path)")

        func roundTrip<Value: Codable & Equatable>(_ type: Value.Type, _ data: Data) throws -> Value {
            let value = try JSONDecoder().decode(Value.self, from: data)
            XCTAssertEqual(try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value)), value)
            return value
        }
        let rex = Zoo.Pet(
            id: 1, name: "Rex", status: .onLoan, tags: ["brave", "loud"], weights: ["2025": 4.5],
            extra: .object([("vet", .array([.integer(1), .string("two"), .bool(true)]))]),
            keeper: Zoo.Person(name: "Ann", manager: Zoo.Person(name: "Bea", reports: [Zoo.Person(name: "Cy")])),
            selfValue: "/pets/1", default: true)
        XCTAssertEqual(try roundTrip(Zoo.Pet.self, Zoo.showPet(id: 1).sampleData), rex)
        XCTAssertEqual(rex.keeper?.manager?.reports?.first?.name, "Cy")
        XCTAssertEqual(
            try roundTrip([Zoo.Animal].self, Zoo.listAnimals.sampleData),
            [.cat(Zoo.Cat(kind: "cat", lives: 9)), .dog(Zoo.Dog(kind: "dog", good: true)), .dog(Zoo.Dog(kind: "dog"))])
        XCTAssertEqual(try roundTrip(Zoo.Puppy.self, Zoo.puppy.sampleData), Zoo.Puppy(kind: "dog", ageWeeks: 8))
        XCTAssertEqual(
            try roundTrip(Zoo.LabelsResponse.self, Zoo.labels.sampleData),
            Zoo.LabelsResponse(labels: [.string("a"), .integer(2), nil], status: .retired))
        XCTAssertEqual(
            try roundTrip(Zoo.ResponseModel.self, Data(#"{"message":"no such pet"}"#.utf8)),
            Zoo.ResponseModel(message: "no such pet"))
        // A value the description did not list is kept, and sent back as it came.
        let unknown = try JSONDecoder().decode(Zoo.StatusModel.self, from: Data(#""adopted""#.utf8))
        XCTAssertEqual(unknown, .unknown("adopted"))
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(unknown), as: UTF8.self), #""adopted""#)

        // Typed calls, from the samples: the result's type chooses the typed form.
        let stubbed = MoyaProvider<Zoo>(stubClosure: MoyaProvider.immediatelyStub)
        let pet: Zoo.Pet = try await stubbed.request(.showPet(id: 1))
        XCTAssertEqual(pet, rex)
        let created: Zoo.Pet = try await stubbed.request(.createPet(name: "Kit", status: .available))
        XCTAssertEqual(created, Zoo.Pet(id: 2, name: "Kit", status: .available))
        let plain = try await stubbed.request(.showPet(id: 1))
        XCTAssertEqual(plain.statusCode, 200)
        XCTAssertEqual(plain.data, Zoo.showPet(id: 1).sampleData)

        // And live, from a server on 127.0.0.1; a body that does not decode is objectMapping.
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("zoo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: files.appendingPathComponent("pets"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        try Data(#"{"id":7,"name":"Tom","status":"adopted","keeper":{"name":"Di"}}"#.utf8).write(
            to: files.appendingPathComponent("pets/7"))
        try Data(#"{"id":"eight"}"#.utf8).write(to: files.appendingPathComponent("pets/8"))
        let server = try TestServer(files: files.path)
        defer { server.stop() }
        setenv("ZOO_URL", server.baseURL + "/files", 1)
        defer { unsetenv("ZOO_URL") }
        let live: Zoo.Pet = try await MoyaProvider<Zoo>().request(.showPet(id: 7))
        XCTAssertEqual(live, Zoo.Pet(id: 7, name: "Tom", status: .unknown("adopted"), keeper: Zoo.Person(name: "Di")))
        do {
            let _: Zoo.Pet = try await MoyaProvider<Zoo>().request(.showPet(id: 8))
            XCTFail("a body that is not a Pet decoded")
        } catch {
            guard case .objectMapping(let underlying, let response) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(underlying is DecodingError, "\(underlying)")
            XCTAssertEqual(response.data, Data(#"{"id":"eight"}"#.utf8))
        }
    }

    /// A default that reads `${VAR}` is read when the generated code runs, as the base URL is,
    /// the spec's fallback standing where the variable is unset or not of the param's type;
    /// a `timeout` is carried, and a plugin sets it on the request.
    func testEnvironmentDefaultsAreReadWhenTheCodeRunsAndTimeoutsAreCarried() throws {
        let query = {
            try MoyaProvider<Hostile>.defaultEndpointMapping(for: Hostile.defaults()).urlRequest().url?.query
        }
        defer {
            unsetenv("HOSTILE_Q")
            unsetenv("HOSTILE_N")
        }
        unsetenv("HOSTILE_Q")
        unsetenv("HOSTILE_N")
        XCTAssertEqual(try query(), "label=pre-cats-post&n=3&q=cats")
        setenv("HOSTILE_Q", "dogs", 1)
        setenv("HOSTILE_N", "7", 1)
        XCTAssertEqual(try query(), "label=pre-dogs-post&n=7&q=dogs")
        setenv("HOSTILE_N", "seven", 1)
        XCTAssertEqual(try query(), "label=pre-dogs-post&n=3&q=dogs")

        XCTAssertEqual(Hostile.defaults().timeout, 2.5)
        XCTAssertNil(Hostile.pick(verb: .get).timeout)
        XCTAssertEqual(Myservice.zen.timeout, 30)
        let request = URLRequest(url: try XCTUnwrap(URL(string: "https://api.example.com/defaults")))
        XCTAssertEqual(Hostile.TimeoutPlugin().prepare(request, target: Hostile.defaults()).timeoutInterval, 2.5)
        XCTAssertEqual(
            Hostile.TimeoutPlugin().prepare(request, target: Hostile.pick(verb: .get)).timeoutInterval,
            request.timeoutInterval)
    }

    func testOutputGoesToAFileWholeAndTheAccessLevelIsChosen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The folder above the file is made, as every other output's is.
        let file = directory.appendingPathComponent("gen/MyService.swift").path
        let (status, out, error) = await CommandTests.run([
            "generate", "swift", "myservice", "--specs", specs, "-o", file,
        ])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(written.contains("\nenum Myservice: Sendable {\n"), written)
        XCTAssertFalse(written.contains("public "), written)

        let (missing, _, missingError) = await CommandTests.run(["generate", "swift", "nosuch", "--specs", specs])
        XCTAssertEqual(missing, 64)
        XCTAssertEqual(
            missingError,
            "moya-cli: error: no service named 'nosuch' in github, httpbin, myservice, translator "
                + "(specs read from \(specs))\n")
        let (bad, _, badError) = await CommandTests.run([
            "generate", "swift", "myservice", "--specs", specs, "--access", "open",
        ])
        XCTAssertEqual(bad, 64)
        XCTAssertTrue(badError.contains("open"), badError)
    }

    /// Each generated case builds the request `call --dry-run --json` prints for the same
    /// values: method, URL, headers and body; and its sample is what a stubbed call prints. The CLI's own `User-Agent`, and `Accept: */*`
    /// where the spec sets none, are the transport's, not the target's. A multipart body is
    /// left to the provider by Moya's `urlRequest()`, so its body and type are not compared.
    func testEachCaseBuildsTheRequestCallSends() async throws {
        let upload = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString).bin")
        try Data("bytes".utf8).write(to: upload)
        defer { try? FileManager.default.removeItem(at: upload) }
        let cases: [(target: TargetType, call: [String])] = [
            (Myservice.zen, ["myservice.zen"]),
            (Myservice.showUser(id: 7), ["myservice.showUser", "--id", "7"]),
            (Myservice.createUser(firstName: "Ann"), ["myservice.createUser", "--firstName", "Ann"]),
            (
                Myservice.createUser(firstName: #"A "q" \ é/"#, lastName: "Lee & Co"),
                ["myservice.createUser", "--firstName", #"A "q" \ é/"#, "--lastName", "Lee & Co"]
            ),
            (
                Myservice.updateUser(id: 3, firstName: "Ann Marie", lastName: "a=b&c"),
                ["myservice.updateUser", "--id", "3", "--firstName", "Ann Marie", "--lastName", "a=b&c"]
            ),
            (Myservice.deleteUser(id: 9), ["myservice.deleteUser", "--id", "9"]),
            (Myservice.showAccounts, ["myservice.showAccounts"]),
            (Github.zen, ["github.zen"]),
            (Github.userProfile(name: "a b/..?"), ["github.userProfile", "--name", "a b/..?"]),
            (Github.userProfile(name: ".."), ["github.userProfile", "--name", ".."]),
            (Github.userRepositories(name: "moya"), ["github.userRepositories", "--name", "moya"]),
            (
                Github.userRepositories(name: "moya", perPage: 5),
                ["github.userRepositories", "--name", "moya", "--perPage", "5"]
            ),
            (Httpbin.get(), ["httpbin.get"]),
            (
                Httpbin.get(q: "x y", tags: ["a", "b c"]),
                ["httpbin.get", "--q", "x y", "--tags", "a", "--tags", "b c"]
            ),
            (
                Httpbin.get(fields: ["id", "name,x", "b c"]),
                ["httpbin.get", "--fields", "id", "--fields", "name,x", "--fields", "b c"]
            ),
            (Httpbin.post(name: "Ann"), ["httpbin.post", "--name", "Ann"]),
            (Httpbin.post(name: "Ann", age: 30), ["httpbin.post", "--name", "Ann", "--age", "30"]),
            (Httpbin.form(name: "Ann"), ["httpbin.form", "--name", "Ann"]),
            (Httpbin.form(name: "Ann B", admin: true), ["httpbin.form", "--name", "Ann B", "--admin", "true"]),
            (Httpbin.upload(file: upload), ["httpbin.upload", "--file", upload.path]),
            (Httpbin.status(code: 418), ["httpbin.status", "--code", "418"]),
            (Httpbin.delay(), ["httpbin.delay"]),
            (Httpbin.delay(seconds: 2.5), ["httpbin.delay", "--seconds", "2.5"]),
            (Httpbin.bearer(token: "t0ken"), ["httpbin.bearer", "--token", "t0ken"]),
            (Httpbin.download(), ["httpbin.download"]),
            (Httpbin.download(bytes: 10, to: "x.bin"), ["httpbin.download", "--bytes", "10", "--to", "x.bin"]),
            (Translator.languages, ["translator.languages"]),
            (
                Translator.translate(texts: ["Hello", "Wörld"]),
                ["translator.translate", "--texts", "Hello", "--texts", "Wörld"]
            ),
            (
                Translator.translateQuery(from: .german, to: ["en", "ja"]),
                ["translator.translateQuery", "--from", "german", "--to", "en", "--to", "ja"]
            ),
            (Translator.translateQuery(to: ["en"]), ["translator.translateQuery", "--to", "en"]),
        ]
        let environment = ProcessInfo.processInfo.environment
        for (target, call) in cases {
            let (status, out, error) = await CommandTests.run(
                ["call"] + call + ["--dry-run", "--json", "--show-secrets", "--specs", specs], environment: environment)
            XCTAssertEqual(status, 0, "\(call): \(error)")
            let printed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            let request = try MoyaProvider<MultiTarget>.defaultEndpointMapping(for: MultiTarget(target)).urlRequest()
            XCTAssertEqual(request.httpMethod, printed["method"] as? String, "\(call)")
            XCTAssertEqual(request.url?.absoluteString, printed["url"] as? String, "\(call)")

            let isMultipart = call[0] == "httpbin.upload"
            var expected: [String: String] = [:]
            for (name, value) in printed["headers"] as? [String: String] ?? [:] {
                let key = name.lowercased()
                if (key == "user-agent" && value.hasPrefix("moya-cli/")) || (key == "accept" && value == "*/*") {
                    continue
                }
                if isMultipart, key == "content-type" { continue }
                expected[key] = value
            }
            var built: [String: String] = [:]
            for (name, value) in request.allHTTPHeaderFields ?? [:] { built[name.lowercased()] = value }
            XCTAssertEqual(built, expected, "\(call)")
            // The sample, with the same values in it, is what a stubbed call prints.
            if !call[0].hasPrefix("httpbin.download") {
                let (_, stubbed, _) = await CommandTests.run(
                    ["call"] + call + ["--stub", "immediate", "--specs", specs], environment: environment)
                XCTAssertEqual(String(decoding: target.sampleData, as: UTF8.self), stubbed, "\(call)")
            }
            if !isMultipart {
                XCTAssertEqual(
                    request.httpBody.map { String(decoding: $0, as: UTF8.self) }, printed["body"] as? String, "\(call)")
            }
        }
    }
}
