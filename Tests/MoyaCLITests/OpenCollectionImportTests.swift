import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import bruno` on Bruno's YAML format, OpenCollection, written here: a collection
/// folder (`opencollection.yml` with request defaults and an environment, a folder with
/// `folder.yml`, requests with params, a JSON body, basic auth, assertions, a script, settings
/// and an example, a WebSocket request, `environments/*.yml` with a secret) and a bundled
/// document (nested folders, a form, body variants, a multipart file, GraphQL). The whole spec
/// and warnings; the assertions run as checks against a real server, and can fail; the
/// requests counted by Python's YAML reader equal the targets and the requests reported.
final class OpenCollectionImportTests: XCTestCase {
    func folderFiles(baseURL: String) -> [String: String] {
        [
            "opencollection.yml": """
            opencollection: 1.0.0
            info:
              name: Lamp Shop
            config:
              environments:
                - name: local
                  variables:
                    - name: baseUrl
                      value: \(baseURL)
            request:
              headers:
                - name: Accept
                  value: application/json
              auth:
                type: bearer
                token: "{{token}}"
              variables:
                - name: baseUrl
                  value: https://api.shop.example
            """,
            "environments/staging.yml": """
            name: staging
            variables:
              - name: baseUrl
                value: https://staging.shop.example
              - name: token
                secret: true
            """,
            "users/folder.yml": """
            info:
              name: Users
              type: folder
              seq: 1
            request:
              headers:
                - name: X-Team
                  value: lamps
            """,
            "users/get-user.yml": """
            info:
              name: Get user
              type: http
              seq: 1
            http:
              method: GET
              url: "{{baseUrl}}/json?fields=name"
              params:
                - name: fields
                  value: name
                  type: query
                - name: debug
                  value: "1"
                  type: query
                  disabled: true
            runtime:
              assertions:
                - expression: res.status
                  operator: eq
                  value: "200"
                - expression: res.body.id
                  operator: isNumber
                - expression: res.body.first_name
                  operator: startsWith
                  value: Ha
                - expression: res.body.score
                  operator: gt
                  value: "9"
                - expression: res.body.house
                  operator: isTruthy
              scripts:
                - type: after-response
                  code: "bru.setVar('id', res.body.id)"
            settings:
              followRedirects: false
              timeout: 5000
            examples:
              - name: found
                response:
                  status: 200
                  body:
                    type: json
                    data: '{"id": 42, "first_name": "Harry"}'
            """,
            "users/create-user.yml": """
            info:
              name: Create user
              type: http
              seq: 2
            http:
              method: POST
              url: "{{baseUrl}}/people"
              body:
                type: json
                data: |-
                  {"name": "Ann", "password": "hunter2"}
              auth:
                type: basic
                username: admin
                password: s3cret-pw
            """,
            "ping.yml": """
            info:
              name: Ping
              type: http
              seq: 1
            http:
              method: GET
              url: "{{baseUrl}}/ping"
              auth: inherit
            """,
            "live.yml": """
            info:
              name: Live
              type: websocket
              seq: 2
            websocket:
              url: wss://live.shop.example
            """,
            "notes/readme.yml": "title: not a request",
        ]
    }

    func write(_ files: [String: String], into folder: String) throws {
        for (path, text) in files {
            let file = folder + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    func testACollectionFolder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "opencollection-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try write(folderFiles(baseURL: server.baseURL), into: folder + "/shop")
        let (status, out, error) = await CommandTests.run(
            ["import", "bruno", "shop", "-o", "specs/", "--service", "shop"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 4 requests → 3 targets in 1 service; 7 things not carried, listed below
            moya-cli: warning: users/get-user.yml:1: not carried: query debug: a disabled query param is left out
            moya-cli: warning: environments/staging.yml: not carried: token: a secret is never written; set TOKEN before \
            calling
            moya-cli: warning: notes/readme.yml:1: not carried: file: it is no OpenCollection item (it has no info: or http:)
            moya-cli: warning: live.yml:1: not carried: request: a websocket request is not HTTP; it has no place in a spec \
            yet
            moya-cli: warning: users/get-user.yml:1: not carried: assertion res.body.house: isTruthy: the assertion has no \
            check of the same meaning
            moya-cli: warning: users/get-user.yml:1: not carried: scripts: a script is never run; what it sets or tests is \
            not carried
            moya-cli: warning: users/get-user.yml:1: not carried: settings.timeout: the request setting is not carried
            moya-cli: warning: set TOKEN, PASSWORD before calling: the source's credentials are read from the environment, \
            never written into the spec

            """)
        let spec = try String(contentsOfFile: folder + "/specs/shop.yaml", encoding: .utf8)
        XCTAssertEqual(
            spec,
            #"""
            # Imported by moya-cli import bruno from Lamp Shop.
            service: shop
            baseURL: "${BASE_URL:-https://api.shop.example}"
            environments:
              local: { baseURL: "\#(server.baseURL)" }
              staging: { baseURL: "https://staging.shop.example" }
            auth: { bearer: "${TOKEN:-}" }
            targets:
              ping:
                summary: Ping
                path: /ping
                headers: { Accept: application/json }
              usersGetUser:
                summary: Get user
                path: /json
                headers: { Accept: application/json, X-Team: lamps }
                task:
                  parameters:
                    - fields: name
                  encoding: queryString
                  arrays: noBrackets
                  bools: literal
                followRedirects: false
                samples:
                  found: { json: { id: 42, first_name: Harry } }
                checks:
                  - name: example
                    expect:
                      status: 200
                      json:
                        "$.id": { type: number }
                        "$.first_name": { matches: "^Ha" }
                        "$.score": { gt: 9 }
              usersCreateUser:
                summary: Create user
                method: POST
                path: /people
                headers: { Accept: application/json, X-Team: lamps }
                auth: { basic: { user: admin, password: "${PASSWORD:-}" } }
                task:
                  data: "{\"name\":\"Ann\",\"password\":\"${PASSWORD:-}\"}"
                  contentType: application/json
                checks:
                  - name: example
                    live: false

            """#)
        for secret in ["hunter2", "s3cret-pw"] { XCTAssertFalse(spec.contains(secret) || error.contains(secret)) }
        // The assertions hold against the server, as they did in Bruno, and can fail.
        try await assertImportedCheckHoldsAndCanFail(
            "shop.usersGetUser", folder: folder, replacing: "matches: \"^Ha\"", with: "matches: \"^Ro\"")
    }

    static let bundle = """
        opencollection: 1.0.0
        info:
          name: Echo
        request:
          auth:
            type: apikey
            key: X-Api-Key
            value: "{{apiKey}}"
            placement: header
        items:
          - info:
              name: Status
              type: http
            http:
              method: get
              url: https://echo.example/status/{{code}}
            runtime:
              assertions:
                - expression: res.status
                  operator: lt
                  value: "500"
          - info:
              name: Forms
              type: folder
            items:
              - info:
                  name: Login
                  type: http
                http:
                  method: POST
                  url: https://echo.example/login
                  body:
                    type: form-urlencoded
                    data:
                      - name: user
                        value: ann
                      - name: password
                        value: pw-123
                docs: Logs in.
              - info:
                  name: Upload
                  type: http
                http:
                  method: POST
                  url: https://echo.example/upload
                  body:
                    - title: small
                      selected: false
                      body: { type: text, data: small }
                    - title: file
                      selected: true
                      body:
                        type: multipart-form
                        data:
                          - name: note
                            type: text
                            value: hello
                          - name: file
                            type: file
                            value: [a.txt]
              - info:
                  name: Stream
                  type: grpc
                grpc:
                  url: grpc://echo.example
          - info:
              name: Query
              type: graphql
            graphql:
              url: https://echo.example/graphql
              body:
                query: "{ viewer { login } }"

        """

    func testABundledDocumentEveryRequestCounted() async throws {
        // Python's YAML reader counts the requests; without python3 the test is skipped.
        try Repository.requirePrograms(["python3"])
        let folder = NSTemporaryDirectory() + "opencollection-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try Self.bundle.write(toFile: folder + "/echo.yml", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "bruno", "echo.yml"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out,
            #"""
            # Imported by moya-cli import bruno from Echo.
            service: echo
            baseURL: "https://echo.example"
            targets:
              status:
                summary: Status
                params:
                  code: { type: string, description: "{{code}} in the collection" }
                path: "/status/{code}"
                headers: { X-Api-Key: "${API_KEY:-}" }
              formsLogin:
                summary: Login
                description: Logs in.
                method: POST
                path: /login
                headers: { X-Api-Key: "${API_KEY:-}" }
                task:
                  parameters: { user: ann, password: "${PASSWORD:-}" }
                  encoding: httpBody
                  arrays: noBrackets
                  bools: literal
                checks:
                  - name: example
                    live: false
              formsUpload:
                summary: Upload
                method: POST
                params:
                  file: { type: file, description: Postman sent the file a.txt }
                path: /upload
                headers: { X-Api-Key: "${API_KEY:-}" }
                task:
                  multipart:
                    - { name: note, value: hello }
                    - { name: file, file: "{file}" }
              query:
                summary: Query
                method: POST
                path: /graphql
                headers: { X-Api-Key: "${API_KEY:-}" }
                task:
                  data: "{\"query\":\"{ viewer { login } }\"}"
                  contentType: application/json
                checks:
                  - name: example
                    live: false

            """#)
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 5 requests → 4 targets in 1 service; 3 things not carried, listed below
            moya-cli: warning: echo.yml: Status: not carried: assertions: the check they make needs a value for code, which \
            the source does not give; write the check with one
            moya-cli: warning: echo.yml: Forms / Upload: not carried: body small: only the selected body variant is sent
            moya-cli: warning: echo.yml: Forms / Stream: not carried: request: a grpc request is not HTTP; it has no place in \
            a spec yet
            moya-cli: warning: set API_KEY, PASSWORD before calling: the source's credentials are read from the environment, \
            never written into the spec

            """)
        XCTAssertFalse((out + error).contains("pw-123"))
        // No silent drop: Python's YAML reader counts the items that are no folder.
        let script = """
            import sys, yaml
            def count(items):
                return sum(count(i.get('items')) if (i.get('info') or {}).get('type') == 'folder' or 'items' in i else 1 for i in items or [])
            print(count(yaml.safe_load(open(sys.argv[1]))['items']))
            """
        let run = try Launch.run(
            Launch.onPath("python3").0, ["python3", "-c", script, folder + "/echo.yml"], environment: nil)
        guard run.status == 0, let requests = Int(run.out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Repository.unavailable("python3 with PyYAML is needed to count independently: \(run.error)")
        }
        let carried = 4
        let reported = error.split(separator: "\n").filter { $0.hasSuffix("it has no place in a spec yet") }.count
        XCTAssertEqual(requests, 5)
        XCTAssertEqual(carried + reported, requests)
    }

    /// A stranger's document nested past 16 folders: its requests are counted and reported, and
    /// nothing is written.
    func testADocumentNestedTooDeepIsReportedNotWalked() async throws {
        let folder = NSTemporaryDirectory() + "opencollection-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        var text = "opencollection: 1.0.0\nitems:\n"
        var indent = ""
        for level in 0..<40 {
            text += indent + "  - info: { name: f\(level), type: folder }\n" + indent + "    items:\n"
            indent += "    "
        }
        text += indent + "  - info: { name: r, type: http }\n" + indent + "    http: { method: GET, url: http://x/a }\n"
        try text.write(toFile: folder + "/deep.yml", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "bruno", "deep.yml", "-o", "specs/"], in: folder)
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        let path = (0..<16).map { "f\($0)" }.joined(separator: " / ")
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 1 request → 0 targets in 0 services; 1 thing not carried, listed below
            moya-cli: warning: deep.yml: \(path): not carried: folder: it is more than 16 folders deep; the requests it \
            holds (1) are left out
            moya-cli: error: deep.yml: no request could be imported; the lines above say why

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/specs"))
    }
}
