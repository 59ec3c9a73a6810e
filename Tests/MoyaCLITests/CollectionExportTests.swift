import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli export postman` and `export http`: the whole output for a spec that uses each
/// mapping, and the round trips: `import` of the export gives back the spec `import` made,
/// for every collection in `../shared/collections` that imports, and the bundled specs' targets.
final class CollectionExportTests: XCTestCase {
    static let shop = """
        service: shop
        baseURL: ${SHOP_URL:-https://shop.example.com}
        auth:
          bearer: ${SHOP_TOKEN}
        environments:
          staging: { baseURL: https://staging.shop.example.com }
        targets:
          showItem:
            summary: One item
            params:
              id: { type: string, default: "42" }
              fields: { type: string, default: name }
            path: /items/{id}
            task:
              parameters: { fields: "{fields}" }
              encoding: queryString
            headers: { X-Trace: "${TRACE_ID:-none}" }
            samples:
              found: { json: { id: "42", name: Lamp } }
            checks:
              - name: found
                expect:
                  status: 200
                  headers: { Content-Type: { contains: json } }
                  json: { $.name: Lamp, $.id: { type: string } }
                  maxTime: 500ms
          addItem:
            method: POST
            path: /items
            auth: none
            task:
              json: { name: Lamp, price: 12 }
          login:
            method: POST
            path: /login
            task:
              parameters: { user: ann, password: "${SHOP_PASSWORD}" }
              encoding: httpBody

        """

    func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "export-collections-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/specs", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try Self.shop.write(toFile: folder + "/specs/shop.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    func testExportPostmanWritesTheWholeCollectionAndNoSecret() async throws {
        let folder = try folder()
        let secret = "sekrit-Value-93"
        let (status, output, error) = await CommandTests.run(
            ["export", "postman", "shop", "--specs", "specs"],
            environment: ["SHOP_TOKEN": secret, "SHOP_PASSWORD": secret], in: folder)
        XCTAssertEqual(status, 0, error)
        let expected = """
            {"info":{"name":"shop","description":"Exported by moya-cli export postman from specs/shop.yaml.",\
            "schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},\
            "item":[{"name":"showItem","x-moya-summary":"One item","x-moya-params":{"id":{"type":"string",\
            "default":"42"},"fields":{"type":"string","default":"name"}},"request":{"method":"GET",\
            "header":[{"key":"X-Trace","value":"{{TRACE_ID}}"}],\
            "url":{"raw":"{{SHOP_URL}}/items/:id?fields={{fields}}","host":["{{SHOP_URL}}"],"path":["items",\
            ":id"],"query":[{"key":"fields","value":"{{fields}}"}],"variable":[{"key":"id","value":"42"},\
            {"key":"fields","value":"name"}]}},"response":[{"name":"found","status":"OK","code":200,\
            "header":[{"key":"Content-Type","value":"application/json"}],"body":"{\\n  \\"id\\" : \\"42\\",\
            \\n  \\"name\\" : \\"Lamp\\"\\n}"}]},{"name":"addItem","request":{"method":"POST",\
            "header":[{"key":"Content-Type","value":"application/json"}],"body":{"mode":"raw",\
            "raw":"{\\n  \\"name\\": \\"Lamp\\",\\n  \\"price\\": 12\\n}",\
            "options":{"raw":{"language":"json"}}},"url":{"raw":"{{SHOP_URL}}/items","host":["{{SHOP_URL}}"],\
            "path":["items"]},"auth":{"type":"noauth"}},"response":[]},{"name":"login",\
            "request":{"method":"POST","header":[],"body":{"mode":"urlencoded","urlencoded":[{"key":"user",\
            "value":"ann","type":"text"},{"key":"password","value":"{{SHOP_PASSWORD}}","type":"text"}]},\
            "url":{"raw":"{{SHOP_URL}}/login","host":["{{SHOP_URL}}"],"path":["login"]}},"response":[]}],\
            "auth":{"type":"bearer","bearer":[{"key":"token","value":"{{SHOP_TOKEN}}","type":"string"}]},\
            "variable":[{"key":"SHOP_URL","value":"https://shop.example.com","type":"string"},\
            {"key":"SHOP_TOKEN","value":"","type":"string",\
            "description":"A credential: set it in a Postman environment, as a secret."},{"key":"TRACE_ID",\
            "value":"none","type":"string"},{"key":"SHOP_PASSWORD","value":"","type":"string",\
            "description":"A credential: set it in a Postman environment, as a secret."}]}
            """
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? NSDictionary
        let wanted = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        XCTAssertEqual(parsed, wanted, output)
        XCTAssertTrue(output.hasPrefix("{\n  \"info\" : {\n") && output.hasSuffix("}\n"), output)
        XCTAssertEqual(
            error,
            "moya-cli: note: showItem: checks: a Postman collection's tests are scripts, which moya-cli does not write\n"
                + "moya-cli: note: environments: written only beside a file; give -o FILE.json to write "
                + "shop.staging.postman_environment.json\n")
        for form in [secret, Data(secret.utf8).base64EncodedString()] {
            XCTAssertFalse(output.contains(form) || error.contains(form))
        }
    }

    func testExportPostmanWritesEachEnvironmentBesideTheCollection() async throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let (status, _, error) = await CommandTests.run(
            ["export", "postman", "shop", "--specs", "specs", "-o", "out/shop.json"],
            environment: ["SHOP_TOKEN": "sekrit-Value-93"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            try String(contentsOfFile: folder + "/out/shop.staging.postman_environment.json", encoding: .utf8),
            """
            {
              "name" : "staging",
              "values" : [
                {
                  "key" : "SHOP_URL",
                  "value" : "https://staging.shop.example.com",
                  "type" : "default",
                  "enabled" : true
                },
                {
                  "key" : "SHOP_TOKEN",
                  "value" : "",
                  "type" : "secret",
                  "enabled" : true
                },
                {
                  "key" : "SHOP_PASSWORD",
                  "value" : "",
                  "type" : "secret",
                  "enabled" : true
                }
              ],
              "_postman_variable_scope" : "environment"
            }

            """)
        // import postman with it gives the environment back.
        let (imported, spec, importError) = await CommandTests.run(
            ["import", "postman", "out/shop.json", "--environment", "out/shop.staging.postman_environment.json"],
            in: folder)
        XCTAssertEqual(imported, 0, importError)
        XCTAssertTrue(
            spec.contains("environments:\n  staging: { baseURL: \"https://staging.shop.example.com\" }\n"), spec)
        // Another environment file of that name is never replaced, and nothing is written.
        try "{}\n".write(
            toFile: folder + "/out/shop.staging.postman_environment.json", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder + "/out/shop.json")
        let (refused, _, refusal) = await CommandTests.run(
            ["export", "postman", "shop", "--specs", "specs", "-o", "out/shop.json"], in: folder)
        XCTAssertEqual(refused, 64)
        XCTAssertEqual(
            refusal,
            "moya-cli: error: out/shop.staging.postman_environment.json exists and holds another environment; move it, or write to another folder\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out/shop.json"))
    }

    /// A stranger's spec that names an environment `../../evil` writes its file beside the
    /// collection, the name percent-encoded, and nowhere else.
    func testAnEnvironmentNameIsNoPath() async throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try
            "service: e\nbaseURL: http://x\nenvironments:\n  \"../../evil\": { baseURL: http://y }\ntargets:\n  a: { path: /a }\n"
            .write(toFile: folder + "/specs/e.yaml", atomically: true, encoding: .utf8)
        let (status, _, error) = await CommandTests.run(
            ["export", "postman", "e", "--specs", "specs", "-o", "out/e.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted(),
            ["e.%2E%2E%2F%2E%2E%2Fevil.postman_environment.json", "e.json"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/evil.postman_environment.json"))
    }

    func testExportHTTPWritesTheFileAndItsEnvironmentsAndNeverReplacesAnother() async throws {
        let folder = try folder()
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let (status, output, error) = await CommandTests.run(
            ["export", "http", "shop", "--specs", "specs", "-o", "out/shop.http"],
            environment: ["SHOP_TOKEN": "sekrit-Value-93"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(output, "")
        XCTAssertEqual(
            error, "moya-cli: note: showItem: samples: a .http file has no saved responses; export postman keeps them\n"
        )
        XCTAssertEqual(
            try String(contentsOfFile: folder + "/out/shop.http", encoding: .utf8),
            """
            # Exported by moya-cli export http from specs/shop.yaml.
            @TRACE_ID = none
            # Set SHOP_TOKEN, SHOP_PASSWORD in http-client.private.env.json; they are never written here.

            ### One item
            # @name showItem
            @id = 42
            @fields = name
            GET {{SHOP_URL}}/items/{{id}}?fields={{fields}}
            X-Trace: {{TRACE_ID}}
            Authorization: Bearer {{SHOP_TOKEN}}

            ?? status == 200
            ?? header content-type includes json
            ?? js response.parsedBody.name == Lamp
            ?? js response.parsedBody.id isString
            ?? duration < 501

            ### addItem
            # @name addItem
            POST {{SHOP_URL}}/items
            Content-Type: application/json

            {
              "name": "Lamp",
              "price": 12
            }

            ### login
            # @name login
            POST {{SHOP_URL}}/login
            Authorization: Bearer {{SHOP_TOKEN}}
            Content-Type: application/x-www-form-urlencoded

            user=ann&password={{SHOP_PASSWORD}}

            """)
        XCTAssertEqual(
            try String(contentsOfFile: folder + "/out/http-client.env.json", encoding: .utf8),
            """
            {
              "$shared" : {
                "SHOP_URL" : "https://shop.example.com"
              },
              "staging" : {
                "SHOP_URL" : "https://staging.shop.example.com"
              }
            }

            """)
        // The check comes back from its `??` lines.
        let (imported, spec, importError) = await CommandTests.run(["import", "http", "out/shop.http"], in: folder)
        XCTAssertEqual(imported, 0, importError)
        XCTAssertTrue(
            spec.contains(
                """
                    checks:
                      - name: example
                        expect:
                          status: 200
                          headers: { content-type: { contains: json } }
                          json: { "$.name": Lamp, "$.id": { type: string } }
                          maxTime: "500ms"

                """), spec)
        // Another folder's environments are never replaced, and nothing is written.
        try "{\"dev\": {\"host\": \"http://localhost\"}}\n".write(
            toFile: folder + "/out/http-client.env.json", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder + "/out/shop.http")
        let (refused, _, refusal) = await CommandTests.run(
            ["export", "http", "shop", "--specs", "specs", "-o", "out/shop.http"], in: folder)
        XCTAssertEqual(refused, 64)
        XCTAssertEqual(
            refusal,
            "moya-cli: error: out/http-client.env.json exists and holds other environments; move it, or write the .http file to another folder\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/out/shop.http"))
        // A folder that is not there is named.
        let (missing, _, missingError) = await CommandTests.run(
            ["export", "postman", "shop", "--specs", "specs", "-o", "nowhere/shop.json"], in: folder)
        XCTAssertEqual(missing, 64)
        XCTAssertEqual(
            missingError, "moya-cli: error: cannot write nowhere/shop.json: the folder nowhere does not exist\n")
    }

    /// A stranger's spec cannot make the `.http` file do what the spec never said: a line break
    /// in a summary, a description, a body, a multipart value or a default never starts a
    /// request, a file to send (`< /etc/passwd`) or a file to write (`>> out`).
    func testExportHTTPWritesNoDirectiveAStrangersSpecHolds() async throws {
        let folder = try folder()
        try #"""
        service: h
        baseURL: http://x
        targets:
          a:
            summary: "one\r\n### two\nGET http://evil"
            description: "line\r\n### sep\n< /etc/passwd"
            method: POST
            path: /a
            task:
              data: "ok\n< /etc/passwd\n>> /tmp/out\n### x"
              contentType: text/plain
          b:
            method: POST
            path: /b
            params:
              note: { type: string, default: "x\n< /etc/shadow" }
            headers: { X-Note: "{note}" }
            task:
              multipart:
                - { name: "n\"\r\nX: y", value: "v\n  >> /tmp/out" }

        """#.write(toFile: folder + "/specs/h.yaml", atomically: true, encoding: .utf8)
        let (status, output, error) = await CommandTests.run(["export", "http", "h", "--specs", "specs"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            output,
            """
            # Exported by moya-cli export http from specs/h.yaml.

            ### one ### two GET http://evil
            # @name a
            # line
            # ### sep
            # < /etc/passwd
            POST http://x/a
            Content-Type: text/plain

            ### b
            # @name b
            POST http://x/b
            X-Note: {{note}}

            """)
        XCTAssertEqual(
            error,
            #"""
            moya-cli: note: a: body: its line "< /etc/passwd" would read as a .http directive; the body is left out
            moya-cli: note: note: its default "x\n< /etc/shadow" cannot be an @ line; set it when calling
            moya-cli: note: b: body: its line "  >> /tmp/out" would read as a .http directive; the body is left out

            """#)
    }

    /// A stranger's collection that declares params (`x-moya-params`) cannot break the import
    /// or widen what a param is: a default of the wrong type gives way to the collection's
    /// (made to fit: `"7"` for an int is 7), a default outside the enum is dropped, an unknown
    /// type, a file param the collection does not make one and a name that is no param's are
    /// ignored (`{{note}}` stays a variable), and the spec compiles.
    func testAStrangersParamDeclarationsAreCheckedNotTrusted() async throws {
        let folder = try folder()
        try #"""
        {"info": {"name": "Odd", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "item": [{"name": "one",
                   "x-moya-params": {"id": {"type": "int", "default": "abc"}, "page": {"type": "bogus"},
                                     "note": {"type": "file"}, "x y": {"type": "string"},
                                     "kind": {"type": "string", "enum": ["a", "b"], "default": "c"},
                                     "size": {"type": "int", "default": 3, "optional": true}},
                   "request": {"method": "POST", "header": [{"key": "X-Note", "value": "{{note}}"}],
                               "url": {"raw": "https://odd.example/items/:id?page={{page}}&kind={{kind}}&size={{size}}",
                                       "variable": [{"key": "id", "value": "7"}]},
                               "body": {"mode": "raw", "raw": "{\"n\": \"{{note}}\"}", "options": {"raw": {"language": "json"}}}}}]}

        """#.write(toFile: folder + "/odd.json", atomically: true, encoding: .utf8)
        let (status, spec, error) = await CommandTests.run(["import", "postman", "odd.json"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            spec,
            #"""
            # Imported by moya-cli import postman from Odd.
            service: odd
            baseURL: "https://odd.example"
            targets:
              one:
                summary: one
                method: POST
                params:
                  id: { type: int, default: 7 }
                  page: { type: string, description: "{{page}} in the collection" }
                  kind: { enum: [a, b] }
                  size: { type: int, default: 3, optional: true }
                path: "/items/{id}"
                headers: { X-Note: "${NOTE}" }
                task:
                  data: "{\"n\": \"${NOTE}\"}"
                  contentType: application/json
                  query:
                    - page: "{page}"
                    - kind: "{kind}"
                    - size: "{size}"

            """#)
    }

    /// import(export(S)) == S for S each spec `import` made, less its first comment and its
    /// params' descriptions (`{{id}} in the collection`, which names the source's variable).
    func roundTrips(_ format: String, sources: [String], except: [String: String]) async throws -> Int {
        let folder = try folder()
        var compared = 0
        for (index, source) in sources.enumerated() {
            let work = folder + "/\(index)"
            let (status, _, _) = await CommandTests.run(["import", format, source, "-o", work + "/first/"])
            guard status == 0 else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: work + "/first").sorted() {
                let service = String(name.dropLast(".yaml".count))
                let exported = work + "/exported." + (format == "http" ? "http" : "json")
                let (exportStatus, _, exportError) = await CommandTests.run([
                    "export", format, service, "--specs", work + "/first", "-o", exported,
                ])
                XCTAssertEqual(exportStatus, 0, "\(source): \(exportError)")
                let (again, second, againError) = await CommandTests.run([
                    "import", format, exported, "--service", service,
                ])
                XCTAssertEqual(again, 0, "\(source): \(againError)")
                func lines(_ spec: String) -> [Substring] {
                    spec.replacing(/, description: "\{\{[^}]*\}\} in the (collection|file)"/, with: "")
                        .replacing(/\{ type: file, description: ("[^"]*"|[^}]*) \}/, with: "{ type: file }")
                        .split(separator: "\n").filter {
                            !$0.hasPrefix("# Imported") && !$0.contains("description: \"{{")
                        }
                }
                let first = try String(contentsOfFile: work + "/first/" + name, encoding: .utf8)
                let differing = zip(lines(first), lines(second)).first { $0 != $1 }
                let same = lines(first).count == lines(second).count && differing == nil
                let file = (source as NSString).lastPathComponent
                // An exception is named with its reason, and not compared.
                if except[file] == nil {
                    XCTAssertTrue(
                        same, "\(source): the round trip differs: \(differing.map { "\($0)\n\($1)" } ?? "in length")")
                }
                compared += 1
            }
        }
        return compared
    }

    func testImportPostmanOfExportPostmanIsTheSameSpecForEveryCollection() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        var sources: [String] = []
        for folder in ["postman-transformer/v2.0.0", "postman-transformer/v2.1.0", "insomnia-fixtures/postman"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: shared + "/" + folder).sorted()
            where name.hasSuffix(".json") {
                sources.append(shared + "/" + folder + "/" + name)
            }
        }
        let compared = try await roundTrips(
            "postman", sources: sources,
            except: [
                "faker-vars-v2_1-input.json":
                    "{{$guid}} is kept as the bearer token's text, which comes back as a literal credential, withheld"
            ])
        XCTAssertGreaterThanOrEqual(compared, 40)
    }

    func testImportHTTPOfExportHTTPIsTheSameSpecForEveryFile() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let root = shared + "/httpyac"
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".http") || $0.hasSuffix(".rest") }.sorted()
        let compared = try await roundTrips(
            "http", sources: files.map { root + "/" + $0 },
            except: [
                "argocd.http":
                    "{{session.token}}, a script's expression, is kept as the token's text, a literal credential",
                "aws.http": "a variable that is also a credential elsewhere in the file comes back without its default",
                "variablesInBody.http": "{{new Date().toIsoString()}}, a script's expression, is no param once text",
            ])
        XCTAssertGreaterThanOrEqual(compared, 200)
    }

    /// The bundled specs come back with the same targets: names, methods, paths, summaries.
    func testBundledSpecsComeBackWithTheSameTargets() async throws {
        let folder = try folder()
        let specs = Repository.root + "/specs"
        let (listed, original, listError) = await CommandTests.run(["list", "--specs", specs])
        XCTAssertEqual(listed, 0, listError)
        func columns(_ text: String) -> [[Substring]] {
            text.split(separator: "\n").filter { !$0.contains(" FLOW ") }.map {
                $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces)[...] }.filter { !$0.isEmpty }
            }
        }
        for format in ["postman", "http"] {
            for service in ["github", "httpbin", "myservice", "translator"] {
                // Each in a folder of its own: a .http file's environments go beside it.
                let exported = folder + "/\(format)-\(service)/\(service).\(format)"
                try FileManager.default.createDirectory(
                    atPath: folder + "/\(format)-\(service)", withIntermediateDirectories: true)
                let (status, _, error) = await CommandTests.run([
                    "export", format, service, "--specs", specs, "-o", exported,
                ])
                XCTAssertEqual(status, 0, error)
                // Postman's environments come back through `--environment`, in the spec's order.
                var environments: [String] = []
                if format == "postman" {
                    let first = original.split(separator: "\n").first { $0.hasPrefix(service + ".") }
                    let target = first.map { String($0.prefix { $0 != " " }) } ?? service
                    let (_, described, _) = await CommandTests.run(["describe", target, "--specs", specs])
                    let names = described.firstMatch(of: /environments: ([^\n]*)/).map { String($0.1) } ?? ""
                    for name in names.split(separator: ", ") where !name.isEmpty {
                        environments += [
                            "--environment",
                            folder + "/\(format)-\(service)/\(service).\(name).postman_environment.json",
                        ]
                    }
                }
                let (again, _, againError) = await CommandTests.run(
                    ["import", format, exported, "--service", service, "-o", folder + "/\(format)/\(service).yaml"]
                        + environments)
                XCTAssertEqual(again, 0, againError)
            }
            let (_, back, _) = await CommandTests.run(["list", "--specs", folder + "/\(format)"])
            XCTAssertEqual(columns(back), columns(original), format)
        }
        // Through Postman, each target as `describe` shows it: params with their types,
        // defaults and descriptions, method and URL, headers, auth, samples and environments
        // (from the environment files written beside the collection). A collection
        // has no timeouts; the task line may name another of the same request
        // (`encoding url` for a GET is the query's). What does not come back is named.
        let different = [
            "httpbin.download": "a download's destination, and the param only it names",
            "myservice.showAccounts": "samples that are a network error or a file's (the file's text comes back)",
            "translator.translate": "a Content-Type header that only repeats what json: sends",
            "translator.translateQuery": "an enum whose values differ from its names",
        ]
        for line in original.split(separator: "\n") where !line.contains(" FLOW ") {
            let target = String(line.prefix { $0 != " " })
            func described(_ specs: String) async -> [Substring] {
                let (_, text, _) = await CommandTests.run(["describe", target, "--specs", specs])
                return text.split(separator: "\n").filter {
                    !$0.hasPrefix("  timeout:") && !$0.hasPrefix("  task:")
                }
            }
            let (before, after) = (await described(specs), await described(folder + "/postman"))
            if different[target] == nil {
                XCTAssertEqual(after, before, target)
            } else {
                XCTAssertNotEqual(after, before, "\(target) comes back whole now; drop it from the list")
            }
        }
    }
}
