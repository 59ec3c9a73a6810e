import MoyaCore
import MoyaRuntime
import MoyaSpec
import XCTest

@testable import MoyaCLI

/// Request items read as HTTPie and xh read them, and the target each request becomes.
final class AdHocRequestTests: XCTestCase {
    func lines(
        _ url: String, _ items: [String], method: String? = nil, credentials: AdHocRequest.Credentials = .bound,
        base: String? = nil, files: [String: String] = [:], form: Bool = false, multipart: Bool = false
    ) throws -> String {
        let request = try AdHocRequest(
            url: url, items: items, method: method, form: form, multipart: multipart,
            read: { path in files[path].map { Data($0.utf8) } })
        return try request.target(named: "t", base: base ?? request.origin, indent: 2, credentials: credentials)
            .lines.joined(separator: "\n")
    }

    func testEachItemKindBecomesPartOfTheTarget() throws {
        XCTAssertEqual(
            try lines(
                "https://api.example.com/v1/search?sort=new", ["q==moya", "q==swift", "limit==10", "Accept:text/csv"]),
            """
              t:
                path: /v1/search
                headers:
                  Accept: text/csv
                params:
                  sort: { type: string, default: new }
                  q: { type: "[string]", default: [ moya, swift ] }
                  limit: { type: int, default: 10 }
                task:
                  parameters:
                    - sort: "{sort}"
                    - q: "{q}"
                    - limit: "{limit}"
                  encoding: queryString
            """)
        XCTAssertEqual(
            try lines(
                "http://localhost:8080/post",
                ["name=Ann", "tags:=[\"a\",\"b\"]", "meta:={\"x\":{\"y\":\"{z}\"}}", "note=@n.txt"],
                files: ["n.txt": "hi ${HOME}"]),
            """
              t:
                method: POST
                path: /post
                params:
                  name: { type: string, default: Ann }
                  tags: { type: "[string]", default: [ a, b ] }
                  note: { type: string, default: "hi $${HOME}" }
                task:
                  json: { name: "{name}", tags: "{tags}", meta: { x: { "y": "{{z}}" } }, note: "{note}" }
            """)
        XCTAssertEqual(
            try lines("http://h.test/up", ["@data.json"], method: "put"),
            """
              t:
                method: PUT
                path: /up
                headers:
                  Content-Type: application/json
                params:
                  file: file
                task:
                  upload: "{file}"
            """)
    }

    func testCredentialsAreBoundOrReadFromVariables() throws {
        let items = ["Authorization:Bearer abc", "X-Api-Key:k", "api_key==q", "password=pw", "count:=2"]
        XCTAssertEqual(
            try lines("https://h.test/x", items),
            """
              t:
                method: POST
                path: /x
                headers:
                  Authorization: { value: Bearer abc, secret: true }
                  X-Api-Key: { value: k, secret: true }
                params:
                  api_key: { type: string, default: q, secret: true }
                  password: { type: string, default: pw, secret: true }
                  count: { type: int, default: 2 }
                task:
                  json: { password: "{password}", count: "{count}" }
                  query:
                    - api_key: "{api_key}"
            """)
        // A URL's user:password is auth: basic, its password read from a variable the call sets.
        let basic = try AdHocRequest(url: "https://u%40x:p%3A@h.test/x", items: [], method: nil)
        let written = try basic.target(named: "t", base: "https://h.test", indent: 2, credentials: .bound)
        XCTAssertEqual(
            written.lines.joined(separator: "\n"),
            """
              t:
                path: /x
                auth: { basic: { user: "u@x", password: "${MOYA_CLI_PASSWORD}" } }
            """)
        XCTAssertEqual(
            written.variables, [.init(name: "MOYA_CLI_PASSWORD", value: "p:", place: "the password of auth: basic")])
        XCTAssertThrowsError(try AdHocRequest(url: "https://u:p@h.test/x", items: ["Authorization:x"], method: nil))

        let request = try AdHocRequest(url: "https://h.test/x", items: items, method: nil)
        let saved = try request.target(
            named: "t", base: "https://h.test", indent: 2, credentials: .environment(service: "my-api"))
        XCTAssertEqual(
            saved.lines.joined(separator: "\n"),
            """
              t:
                method: POST
                path: /x
                headers:
                  Authorization: "Bearer ${MY_API_TOKEN}"
                  X-Api-Key: "${MY_API_X_API_KEY}"
                params:
                  count: { type: int, default: 2 }
                task:
                  json: { password: "${MY_API_PASSWORD}", count: "{count}" }
                  query:
                    - api_key: "${MY_API_API_KEY}"
            """)
        XCTAssertEqual(
            saved.variables,
            [
                .init(name: "MY_API_TOKEN", value: "abc", place: "the Authorization header"),
                .init(name: "MY_API_X_API_KEY", value: "k", place: "the X-Api-Key header"),
                .init(name: "MY_API_API_KEY", value: "q", place: "query item api_key"),
                .init(name: "MY_API_PASSWORD", value: "pw", place: "JSON member password"),
            ])
    }

    func testThePathIsRelativeToTheServiceBaseURL() throws {
        XCTAssertEqual(
            try lines("https://h.test/api/v2/users/7", [], base: "https://h.test/api/"),
            "  t:\n    path: /v2/users/7")
        XCTAssertThrowsError(try lines("https://h.test/apiv2", [], base: "https://h.test/api")) { error in
            XCTAssertEqual(
                (error as? AdHocError)?.message,
                "https://h.test/apiv2 is not under the service's baseURL, https://h.test/api; save it to another service"
            )
        }
    }

    /// HTTPie's shorthands: `:PORT/path` for localhost, `Header;` for an empty value, and a
    /// separator escaped with `\` kept in the name.
    func testLocalhostShorthandEmptyHeadersAndEscapes() throws {
        XCTAssertEqual(AdHocRequest.url(in: ":8080/get"), "http://localhost:8080/get")
        XCTAssertEqual(AdHocRequest.url(in: ":/get"), "http://localhost/get")
        XCTAssertNil(AdHocRequest.url(in: ":x"))
        let request = try AdHocRequest(
            url: "http://localhost:8080/post", items: ["X-Empty;", #"a\=b=c"#, #"time\:zone:=1"#, #"x\:y==1"#],
            method: nil)
        XCTAssertEqual(request.headers.map { "\($0.name)=\($0.value)" }, ["X-Empty="])
        XCTAssertEqual(request.fields.map(\.key), ["a=b", "time:zone"])
        XCTAssertEqual(request.query.map(\.key), ["x:y"])
        XCTAssertEqual(
            try lines("http://localhost:8080/post", ["X-Empty;", #"a\=b=c"#]),
            """
              t:
                method: POST
                path: /post
                headers:
                  X-Empty: ""
                params:
                  a_b: { type: string, default: c }
                task:
                  json: { "a=b": "{a_b}" }
            """)
    }

    /// HTTPie's nested JSON: brackets nest members, `[]` appends, `[N]` places.
    func testNestedJSONMembers() throws {
        XCTAssertEqual(
            try lines(
                "http://h.test/post",
                ["user[name]=Ann", "user[age]:=3", "tags[]=a", "tags[]=b", "ids[]:=1", "pos[0]=x", "pos[1]=y"]),
            """
              t:
                method: POST
                path: /post
                params:
                  user_name: { type: string, default: Ann }
                  user_age: { type: int, default: 3 }
                  tags: { type: "[string]", default: [ a, b ] }
                  ids: { type: int, default: 1 }
                  pos_0: { type: string, default: x }
                  pos_1: { type: string, default: "y" }
                task:
                  json: { user: { name: "{user_name}", age: "{user_age}" }, tags: "{tags}", ids: [ "{ids}" ], pos: [ "{pos_0}", "{pos_1}" ] }
            """)
        XCTAssertThrowsError(try lines("http://h.test/post", ["a=1", "a[b]=2"])) { error in
            XCTAssertEqual(
                (error as? AdHocError)?.message,
                "'a[b]' puts a member where another item already put a value of another kind")
        }
        XCTAssertThrowsError(try lines("http://h.test/post", ["a[2]=1"])) { error in
            XCTAssertEqual((error as? AdHocError)?.message, "'a[2]': index 2 comes before an item at 0")
        }
    }

    /// `--form`: fields urlencoded, or multipart with a file part, as HTTPie's `-f`.
    func testFormsAreUrlencodedOrMultipart() throws {
        XCTAssertEqual(
            try lines("http://h.test/post", ["name=Ann", "q==1"], form: true),
            """
              t:
                method: POST
                path: /post
                params:
                  q: { type: int, default: 1 }
                  name: { type: string, default: Ann }
                task:
                  parameters: { name: "{name}" }
                  encoding: httpBody
                  query:
                    - q: "{q}"
            """)
        XCTAssertEqual(
            try lines("http://h.test/up", ["name=Ann", "cv@cv.txt"], form: true),
            """
              t:
                method: POST
                path: /up
                params:
                  name: { type: string, default: Ann }
                  cv: file
                task:
                  multipart:
                    - { name: name, value: "{name}" }
                    - { name: cv, file: "{cv}" }
            """)
        // `--multipart`: multipart without a file too, as HTTPie's.
        XCTAssertEqual(
            try lines("http://h.test/post", ["name=Ann", "q==1"], multipart: true),
            """
              t:
                method: POST
                path: /post
                params:
                  q: { type: int, default: 1 }
                  name: { type: string, default: Ann }
                task:
                  multipart:
                    - { name: name, value: "{name}" }
                  query:
                    - q: "{q}"
            """)
        let request = try AdHocRequest(url: "http://h.test/up", items: ["cv@cv.txt"], method: nil, form: true)
        XCTAssertEqual(
            try request.target(named: "t", base: request.origin, indent: 2, credentials: .bound).arguments,
            ["cv=cv.txt"])
        for (items, form, expected) in [
            (["cv@cv.txt"], false, "'cv@cv.txt': a file field (name@FILE) needs --form"),
            (["a:=1"], true, "'a:=1': a form's fields are text; name:=json needs a JSON body, without --form"),
        ] {
            XCTAssertThrowsError(try AdHocRequest(url: "http://h.test", items: items, method: nil, form: form)) {
                error in
                XCTAssertEqual((error as? AdHocError)?.message, expected)
            }
        }
    }

    func testItemsThatCannotBeReadSayWhy() {
        func message(_ url: String, _ items: [String], method: String? = nil) -> String? {
            do {
                _ = try AdHocRequest(url: url, items: items, method: method, read: { _ in nil })
                return nil
            } catch {
                return error.message
            }
        }
        XCTAssertEqual(
            message("http://h.test", ["oops"]),
            "unexpected item 'oops'; request items are Header:value, Header;, name==value, name=value, name:=json "
                + "and @FILE")
        XCTAssertEqual(
            message("http://h.test", ["n:={x"]),
            "'n:={x': the value after := is not JSON: expected a string key at byte 1")
        XCTAssertEqual(message("http://h.test", ["a b:c"]), "'a b' is not a valid header name")
        XCTAssertEqual(
            message("http://h.test", ["@a.json", "x=1"]),
            "a body from @FILE cannot go with JSON items (name=value, name:=json)")
        XCTAssertEqual(message("http://h.test", ["n=@missing"]), "'n=@missing': cannot read missing")
        XCTAssertEqual(
            message("http://h.test", [], method: "FETCH"),
            "-X takes one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE, CONNECT, QUERY, not 'FETCH'")
        XCTAssertEqual(message("ftp://h.test", []), "'ftp://h.test' is not an http or https URL")
        XCTAssertEqual(message("http:///x", []), "'http:///x' has no host")
    }

    func testAWordIsAURLOrATarget() {
        XCTAssertEqual(AdHocRequest.url(in: "https://h.test"), "https://h.test")
        XCTAssertEqual(AdHocRequest.url(in: "localhost:8080/get"), "http://localhost:8080/get")
        XCTAssertEqual(AdHocRequest.url(in: "httpbin.org/get"), "http://httpbin.org/get")
        XCTAssertNil(AdHocRequest.url(in: "myservice.showUser"))
        XCTAssertEqual(
            try AdHocRequest(url: "https://api.github.com/zen", items: [], method: nil).serviceName, "github")
        XCTAssertEqual(try AdHocRequest(url: "http://127.0.0.1:8080", items: [], method: nil).serviceName, "url")
    }
}

/// `--save`'s edit of a spec's text: the target added or replaced, every other byte kept.
final class TargetEditTests: XCTestCase {
    let spec = """
        # My API.
        service: api
        baseURL: https://h.test
        targets:
          one:    # the first
            path: /one

        # Trailing comment.

        """

    func testATargetIsAddedAfterTheLastAndEverythingElseStays() throws {
        let edit = TargetEdit(file: "api.yaml", target: "two", replaces: false)
        XCTAssertEqual(try edit.column(in: spec), 2)
        XCTAssertEqual(
            try edit.apply(["  two:", "    path: /two"], to: spec),
            """
            # My API.
            service: api
            baseURL: https://h.test
            targets:
              one:    # the first
                path: /one
              two:
                path: /two

            # Trailing comment.

            """)
    }

    func testATargetOfTheSameNameIsReplacedOnlyWhenAsked() throws {
        XCTAssertThrowsError(
            try TargetEdit(file: "api.yaml", target: "one", replaces: false).apply(
                ["  one:", "    path: /1"], to: spec)
        ) { error in
            XCTAssertEqual(
                (error as? Diagnostic)?.description,
                "api.yaml:5:3: error: targets.one: the spec has this target already; --force replaces it")
        }
        XCTAssertEqual(
            try TargetEdit(file: "api.yaml", target: "one", replaces: true).apply(
                ["  one:", "    path: /1"], to: spec),
            spec.replacingOccurrences(of: "  one:    # the first\n    path: /one", with: "  one:\n    path: /1"))
    }

    func testFlowStyleTargetsAreRefused() {
        XCTAssertThrowsError(
            try TargetEdit(file: "f.yaml", target: "x", replaces: false).apply(
                ["  x: {}"], to: "baseURL: https://h.test\ntargets: { a: { path: /a } }\n")
        ) { error in
            XCTAssertEqual(
                (error as? Diagnostic)?.description,
                "f.yaml:2:10: error: targets: is written in flow style, { … }; --save edits block style: write it as a block"
            )
        }
    }
}
