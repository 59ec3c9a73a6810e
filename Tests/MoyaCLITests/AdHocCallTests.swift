import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `call URL [ITEM...]` and `--save`: a request with no spec, then the same request as a
/// saved target, called from another folder, as a new user goes.
final class AdHocCallTests: XCTestCase {
    /// Runs the built executable in `folder` with exactly `environment`, returning its status,
    /// stdout and stderr.
    func launch(_ arguments: [String], in folder: String, environment: [String: String]) throws -> (
        Int32, String, String
    ) {
        let ran = try Launch.run(CommandTests.executable, arguments, environment: environment, in: folder)
        return (ran.status, ran.out, ran.error)
    }

    func temporaryFolder(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "moya-cli-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func testANewUserCallsAURLSavesItAndCallsTheTargetFromAnyFolder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let root = try temporaryFolder("first-run")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (home, empty, elsewhere) = (root + "/home", root + "/empty", root + "/elsewhere")
        for folder in [home, empty, elsewhere] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let base = "http://127.0.0.1:\(server.port)"
        let items = [
            "\(base)/echo/users?page=2", "q==moya", "name=Ann", "age:=31", "admin:=true",
            "Authorization:Bearer s3cret-token",
            "X-Trace:7",
        ]
        let environment = ["HOME": home]
        // The echo of what went out: the same for the request typed and the target saved. With
        // a query too, the JSON body's members keep the order typed.
        let echo =
            #"{"body":"{\"name\":\"Ann\",\"age\":31,\"admin\":true}","headers":[["User-Agent","moya-cli\/0.1.0"],"#
            + #"["Accept","*\/*"],["Authorization","Bearer s3cret-token"],["X-Trace","7"],"#
            + #"["Content-Type","application\/json"],["Accept-Encoding","gzip, deflate"],"#
            + #"["Host","127.0.0.1:\#(server.port)"],["Content-Length","36"]],"method":"POST","#
            + #""uri":"\/echo\/users?page=2&q=moya"}"#

        let typed = try launch(["call"] + items, in: empty, environment: environment)
        XCTAssertEqual(typed.0, 0, typed.2)
        XCTAssertEqual(typed.1, echo)
        XCTAssertEqual(typed.2, "")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: empty), [], "a call with no spec writes nothing")

        let saved = try launch(["call"] + items + ["--save", "hb.createUser"], in: empty, environment: environment)
        let file = home + "/.config/moya-cli/specs/hb.yaml"
        XCTAssertEqual(saved.0, 0, saved.2)
        XCTAssertEqual(saved.1, echo)
        XCTAssertEqual(
            saved.2,
            "moya-cli: saved hb.createUser in \(file)\n"
                + "moya-cli: hb.createUser reads the Authorization header from HB_TOKEN: set it to call the saved target\n"
        )
        XCTAssertEqual(
            try String(contentsOfFile: file, encoding: .utf8),
            """
            service: hb
            baseURL: "\(base)"
            targets:
              createUser:
                method: POST
                path: /echo/users
                headers:
                  Authorization: "Bearer ${HB_TOKEN}"
                  X-Trace: "7"
                params:
                  page: { type: int, default: 2 }
                  q: { type: string, default: moya }
                  name: { type: string, default: Ann }
                  age: { type: int, default: 31 }
                  admin: { type: bool, default: true }
                task:
                  json: { name: "{name}", age: "{age}", admin: "{admin}" }
                  query:
                    - page: "{page}"
                    - q: "{q}"

            """)

        let withToken = environment.merging(["HB_TOKEN": "s3cret-token"]) { $1 }
        let called = try launch(["call", "hb.createUser"], in: elsewhere, environment: withToken)
        XCTAssertEqual(called.0, 0, called.2)
        XCTAssertEqual(called.1, echo)
        XCTAssertEqual(called.2, "")

        // Byte for byte: the two dry runs print the same request.
        let typedDry = try launch(
            ["call"] + items + ["--dry-run", "--show-secrets"], in: empty, environment: environment)
        let savedDry = try launch(
            ["call", "hb.createUser", "--dry-run", "--show-secrets"], in: elsewhere, environment: withToken)
        XCTAssertEqual(typedDry.0, 0)
        XCTAssertEqual(savedDry.1, typedDry.1)
        XCTAssertEqual(
            typedDry.1,
            "POST \(base)/echo/users?page=2&q=moya\nUser-Agent: moya-cli/0.1.0\nAccept: */*\n"
                + "Authorization: Bearer s3cret-token\nX-Trace: 7\nContent-Type: application/json\n\n"
                + #"{"name":"Ann","age":31,"admin":true}"# + "\n")

        // Without the variable the saved target stops before sending, naming it.
        let unset = try launch(["call", "hb.createUser"], in: elsewhere, environment: environment)
        XCTAssertEqual(unset.0, 64)
        XCTAssertEqual(
            unset.2,
            "moya-cli: error: hb.createUser needs the environment variable HB_TOKEN, which is not set "
                + "(\(file):8:22); set it, or write ${HB_TOKEN:-default}\n")
    }

    func testSavingIntoASpecKeepsItsTextAndSendsWithItsHeaders() async throws {
        let folder = try temporaryFolder("save-into")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/shop.yaml"
        let original = """
            # The shop's API.
            service: shop
            baseURL: https://shop.test/api
            headers: { Accept: application/json }
            targets:
              list:   # every item
                path: /items

            """
        try original.write(toFile: file, atomically: true, encoding: .utf8)
        let items = ["https://shop.test/api/items/7", "-X", "PATCH", "price:=12.5", "X-Api-Key:k-123"]
        let typed = await CommandTests.run(
            ["call"] + items + ["--save", "shop.update", "--specs", file, "--dry-run", "--show-secrets"])
        XCTAssertEqual(typed.0, 0, typed.2)
        XCTAssertEqual(
            typed.2,
            "moya-cli: saved shop.update in \(file)\n"
                + "moya-cli: shop.update reads the X-Api-Key header from SHOP_X_API_KEY: set it to call the saved target\n"
        )
        XCTAssertEqual(
            try String(contentsOfFile: file, encoding: .utf8),
            original.replacingOccurrences(
                of: "    path: /items\n",
                with: "    path: /items\n  update:\n    method: PATCH\n    path: /items/7\n    headers:\n"
                    + "      X-Api-Key: \"${SHOP_X_API_KEY}\"\n    params:\n      price: { type: number, default: 12.5 }\n"
                    + "    task:\n      json: { price: \"{price}\" }\n"))
        // The service's Accept goes out with the request typed, as it will with the target saved.
        XCTAssertEqual(
            typed.1,
            "PATCH https://shop.test/api/items/7\nUser-Agent: moya-cli/0.1.0\nAccept: application/json\n"
                + "X-Api-Key: k-123\nContent-Type: application/json\n\n{\"price\":12.5}\n")
        let saved = await CommandTests.run(
            ["call", "shop.update", "--specs", file, "--dry-run", "--show-secrets"],
            environment: ["SHOP_X_API_KEY": "k-123"])
        XCTAssertEqual(saved.1, typed.1)

        // A URL outside the service, a name taken, and options that need a spec are refused,
        // and the file stays as it was.
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let outside = await CommandTests.run(["call", "https://other.test/x", "--save", "shop.other", "--specs", file])
        XCTAssertEqual(outside.0, 64)
        XCTAssertEqual(
            outside.2,
            "moya-cli: error: https://other.test/x is not under the service's baseURL, https://shop.test/api; "
                + "save it to another service\n")
        let taken = await CommandTests.run(["call", "https://shop.test/api/x", "--save", "shop.list", "--specs", file])
        XCTAssertEqual(taken.0, 64)
        XCTAssertEqual(
            taken.2,
            "\(file):6:3: error: targets.list: the spec has this target already; --force replaces it\n"
                + "moya-cli: error: --save shop.list: nothing was saved\n")
        let sample = await CommandTests.run(["call", "https://shop.test/api/x", "--sample", "ok"])
        XCTAssertEqual(sample.0, 64)
        XCTAssertEqual(
            sample.2,
            "moya-cli: error: --sample needs a spec's target; a URL has no samples or environments. "
                + "--save SERVICE.TARGET makes one\n")
        let noURL = await CommandTests.run(["call", "shop.list", "--save", "shop.x", "--specs", file])
        XCTAssertEqual(noURL.0, 64)
        XCTAssertTrue(noURL.2.contains("--save goes with a URL"), noURL.2)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), before)
    }

    /// The `  Name: value` lines after the line `start`.
    func loggedHeaders(_ log: String, after start: String) -> [[String]] {
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(of: start) else { return [] }
        return lines[(first + 1)...].prefix { $0.hasPrefix("  ") }.map { line in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return [
                String(line[line.index(line.startIndex, offsetBy: 2)..<colon]),
                String(line[line.index(after: colon)...].dropFirst()),
            ]
        }
    }

    /// `--curl` with a credential typed on the command line prints it as the variable it is
    /// read from, named on stderr, so that the command runs once the variable is set; the
    /// server got the credential itself. `--show-secrets` prints the value instead.
    func testCurlNamesACredentialsVariableInsteadOfAMask() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let (status, out, error) = await CommandTests.run([
            "call", base + "/echo/curl", "Authorization:Bearer s3cr3t-t0ken", "q==1", "--curl",
        ])
        XCTAssertEqual(status, 0, error)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let received = try XCTUnwrap(echo["headers"] as? [[String]])
        XCTAssertTrue(received.contains(["Authorization", "Bearer s3cr3t-t0ken"]), "\(received)")
        let lines = error.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.first,
            "moya-cli: the curl command reads the Authorization header from $URL_TOKEN: set it to run the "
                + "command, or print the value with --show-secrets")
        XCTAssertFalse(error.contains("s3cr3t-t0ken"), error)
        XCTAssertFalse(error.contains("••••"), error)
        let curl = try XCTUnwrap(lines.first { $0.hasPrefix("curl ") })
        XCTAssertTrue(curl.contains(#""Authorization: Bearer $"#), curl)

        let shown = await CommandTests.run([
            "call", base + "/echo/curl", "Authorization:Bearer s3cr3t-t0ken", "--curl", "--show-secrets",
        ])
        XCTAssertEqual(shown.0, 0, shown.2)
        XCTAssertTrue(shown.2.contains("-H 'Authorization: Bearer s3cr3t-t0ken'"), shown.2)
    }

    func testVerboseShowsEveryHeaderThatWentOutOnEveryHop() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        // What -v shows is what the server got: each field, in order, the transport's too.
        let posted = await CommandTests.run(["call", base + "/echo/wire", "name=Ann", "X-Trace:1", "-v"])
        XCTAssertEqual(posted.0, 0, posted.2)
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(posted.1.utf8)) as? [String: Any])
        let received = try XCTUnwrap(echo["headers"] as? [[String]])
        XCTAssertEqual(loggedHeaders(posted.2, after: "Request: POST \(base)/echo/wire"), received)
        XCTAssertEqual(
            received.map { $0[0] },
            ["User-Agent", "Accept", "X-Trace", "Content-Type", "Accept-Encoding", "Host", "Content-Length"])

        // A redirect's hop shows the request that followed it, as the server got it.
        let redirected = await CommandTests.run(["call", base + "/redirect/1", "-v"])
        let landed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(redirected.1.utf8)) as? [String: Any])
        XCTAssertEqual(
            loggedHeaders(redirected.2, after: "Request: GET \(base)/echo/redirected"),
            try XCTUnwrap(landed["headers"] as? [[String]]))

        // The cookie the jar adds on the next hop is shown, masked.
        let cookie = await CommandTests.run(["call", base + "/cookies/set?flavour=oatmeal", "-v"])
        XCTAssertEqual(cookie.1, #"{"cookie":"flavour=oatmeal"}"#)
        XCTAssertEqual(
            loggedHeaders(cookie.2, after: "Request: GET \(base)/cookies"),
            [
                ["User-Agent", "moya-cli/0.1.0"], ["Accept", "*/*"], ["Cookie", "••••"],
                ["Accept-Encoding", "gzip, deflate"], ["Host", "127.0.0.1:\(server.port)"],
            ])
        // The value is in the URL typed, and nowhere else.
        XCTAssertEqual(cookie.2.components(separatedBy: "oatmeal").count, 2, cookie.2)
    }

    /// Trust round four, finding 8: a credential given more than once, or as JSON that is not
    /// a string, is never written: each value becomes a variable, and the saved target sends
    /// the same bytes with them set. A credential that is a JSON object is refused.
    func testSaveNeverWritesACredentialWhateverItsShape() async throws {
        let folder = try temporaryFolder("save-credentials")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/shop.yaml"
        let items = [
            "https://shop.test/api/items", "token:=12345678", "api_key==q1-s3cret", "api_key==q2-s3cret",
            "password=p1-s3cret", "password=p2-s3cret", "Authorization:=4242", "name=Ann",
        ]
        let typed = await CommandTests.run(
            ["call"] + items + ["--save", "shop.create", "--specs", file, "--dry-run", "--show-secrets"])
        XCTAssertEqual(typed.0, 0, typed.2)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for secret in ["12345678", "q1-s3cret", "q2-s3cret", "p1-s3cret", "p2-s3cret", "4242"] {
            XCTAssertFalse(text.contains(secret), "\(secret) in\n\(text)")
        }
        XCTAssertEqual(
            text,
            """
            service: shop
            baseURL: "https://shop.test"
            targets:
              create:
                method: POST
                path: /api/items
                params:
                  api_key: { type: "[string]", default: [ "${SHOP_API_KEY}", "${SHOP_API_KEY_2}" ], secret: true }
                  token: { type: int, default: "${SHOP_TOKEN}", secret: true }
                  password: { type: "[string]", default: [ "${SHOP_PASSWORD}", "${SHOP_PASSWORD_2}" ], secret: true }
                  Authorization: { type: int, default: "${SHOP_AUTHORIZATION}", secret: true }
                  name: { type: string, default: Ann }
                task:
                  json: { token: "{token}", password: "{password}", Authorization: "{Authorization}", name: "{name}" }
                  query:
                    - api_key: "{api_key}"

            """)
        let saved = await CommandTests.run(
            ["call", "shop.create", "--specs", file, "--dry-run", "--show-secrets"],
            environment: [
                "SHOP_TOKEN": "12345678", "SHOP_API_KEY": "q1-s3cret", "SHOP_API_KEY_2": "q2-s3cret",
                "SHOP_PASSWORD": "p1-s3cret", "SHOP_PASSWORD_2": "p2-s3cret", "SHOP_AUTHORIZATION": "4242",
            ])
        XCTAssertEqual(saved.0, 0, saved.2)
        XCTAssertEqual(saved.1, typed.1)

        let object = await CommandTests.run(
            ["call", "https://shop.test/api/items", #"secret:={"a":"b"}"#, "--save", "shop.other", "--specs", file])
        XCTAssertEqual(object.0, 64)
        XCTAssertEqual(
            object.2,
            "moya-cli: error: JSON member secret is a credential whose value is JSON that a variable cannot hold; "
                + "--save writes a credential only as variables: give it as text (secret=…)\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text)
    }

    /// Finding 17: a member named as a credential inside a JSON object, at any depth, is a
    /// credential: `--save` writes a variable in its place, and the saved target sends the same.
    func testSaveWritesANestedCredentialMemberAsAVariable() async throws {
        let folder = try temporaryFolder("save-nested")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/svc.yaml"
        let items = [
            "https://svc.test/login", #"auth:={"user":"ann","password":"hunter2","items":[{"api_key":"k-9"}]}"#,
        ]
        let typed = await CommandTests.run(
            ["call"] + items + ["--save", "svc.t", "--specs", file, "--dry-run", "--show-secrets"])
        XCTAssertEqual(typed.0, 0, typed.2)
        XCTAssertEqual(
            typed.2,
            """
            moya-cli: saved svc.t in \(file)
            moya-cli: svc.t reads JSON member auth.password from SVC_PASSWORD: set it to call the saved target
            moya-cli: svc.t reads JSON member auth.items[0].api_key from SVC_API_KEY: set it to call the saved target

            """)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertEqual(
            text,
            """
            service: svc
            baseURL: "https://svc.test"
            targets:
              t:
                method: POST
                path: /login
                task:
                  json: { auth: { user: ann, password: "${SVC_PASSWORD}", items: [ { api_key: "${SVC_API_KEY}" } ] } }

            """)
        let saved = await CommandTests.run(
            ["call", "svc.t", "--specs", file, "--dry-run", "--show-secrets"],
            environment: ["SVC_PASSWORD": "hunter2", "SVC_API_KEY": "k-9"])
        XCTAssertEqual(saved.0, 0, saved.2)
        XCTAssertEqual(saved.1, typed.1)
        let number = await CommandTests.run(
            ["call", "https://svc.test/x", #"auth:={"pin":{"token":42}}"#, "--save", "svc.u", "--specs", file])
        XCTAssertEqual(number.0, 64)
        XCTAssertEqual(
            number.2,
            "moya-cli: error: JSON member auth.pin.token is a credential whose value is JSON that a variable cannot "
                + "hold; --save writes a credential only as variables: give it as text\n")
    }

    /// HTTPie's items a new user types, sent: nested JSON, an empty header, a multipart form
    /// with a file, localhost by port.
    func testNestedJSONAndFormsAreSentAsHTTPieSendsThem() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try temporaryFolder("httpie-items")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "hello file".write(toFile: folder + "/cv.txt", atomically: true, encoding: .utf8)
        let environment = ["HOME": folder]
        let (status, out, error) = try launch(
            ["call", ":\(server.port)/echo/nested", "user[name]=Ann", "user[age]:=3", "tags[]=a", "X-Empty;"],
            in: folder, environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(out.contains(#""body":"{\"user\":{\"name\":\"Ann\",\"age\":3},\"tags\":[\"a\"]}""#), out)
        XCTAssertTrue(out.contains(#"["X-Empty",""]"#), out)
        let (formStatus, formOut, formError) = try launch(
            ["call", "http://127.0.0.1:\(server.port)/echo/form", "-f", "name=Ann", "cv@cv.txt"], in: folder,
            environment: environment)
        XCTAssertEqual(formStatus, 0, formError)
        XCTAssertTrue(formOut.contains(#"multipart\/form-data; boundary="#), formOut)
        XCTAssertTrue(formOut.contains(#"name=\"cv\"; filename=\"cv.txt\""#), formOut)
        XCTAssertTrue(formOut.contains("hello file"), formOut)
        let (urlencoded, encodedOut, encodedError) = try launch(
            ["call", "http://127.0.0.1:\(server.port)/echo/form", "--form", "name=Ann Lee", "n=1"], in: folder,
            environment: environment)
        XCTAssertEqual(urlencoded, 0, encodedError)
        // Alamofire's URL encoding sorts the fields by name.
        XCTAssertTrue(encodedOut.contains(#""body":"n=1&name=Ann%20Lee""#), encodedOut)
        // --multipart: the same form as multipart/form-data, with no file.
        let (multipart, multipartOut, multipartError) = try launch(
            ["call", "http://127.0.0.1:\(server.port)/echo/form", "--multipart", "name=Ann Lee"], in: folder,
            environment: environment)
        XCTAssertEqual(multipart, 0, multipartError)
        XCTAssertTrue(multipartOut.contains(#"multipart\/form-data; boundary="#), multipartOut)
        XCTAssertTrue(multipartOut.contains(#"name=\"name\"\r\n\r\nAnn Lee"#), multipartOut)
    }

    /// Runs `call` in-process with `stdin` as its standard input.
    func call(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async -> (
        Int32, String, String
    ) {
        let capture = CommandTests.Capture()
        var context = CommandContext(
            environment: Environment(environment), writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        context.readInput = { Array(stdin.utf8) }
        let status = await MoyaCLI.run(["call"] + arguments, context: context)
        return (status, capture.out, capture.error)
    }

    /// What the echo server saw: method, URI, body, and its headers but the transport's.
    func echoed(_ out: String) throws -> (method: String, uri: String, body: String, headers: [String]) {
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
        let headers = (echo["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }.filter {
            !$0.hasPrefix("Host") && !$0.hasPrefix("Content-Length") && !$0.hasPrefix("Accept-Encoding")
                && !$0.hasPrefix("User-Agent") && !$0.hasPrefix("Accept:")
        }
        return (
            echo["method"] as? String ?? "", echo["uri"] as? String ?? "", echo["body"] as? String ?? "", headers
        )
    }

    /// Habits from HTTPie and xh: the method before the URL, `-a USER:PASSWORD` and
    /// `-A bearer -a TOKEN` (secrets; `--save` writes basic as `auth:` reading a variable), a
    /// body from stdin with `--body @-`, `--curl --dry-run` printing the command and sending
    /// nothing, and `--all` following a `Link` header.
    func testHTTPieAndXhHabits() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try temporaryFolder("habits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let base = server.baseURL

        let posted = try echoed(await call(["POST", base + "/echo/a", "name=Ann"]).1)
        XCTAssertEqual([posted.method, posted.uri, posted.body], ["POST", "/echo/a", #"{"name":"Ann"}"#])
        let put = try echoed(await call(["put", base + "/echo/a"]).1)
        XCTAssertEqual(put.method, "PUT")
        let twice = await call(["POST", base + "/echo/a", "-X", "PUT"])
        XCTAssertEqual(twice.0, 64)
        XCTAssertTrue(twice.2.hasPrefix("moya-cli: error: the method is given twice, POST and -X PUT; give one\n"))

        // Basic: sent after the headers, as the saved target's auth: sends it, and never printed.
        let basicItems = [base + "/echo/b", "-a", "ann:pw", "X-Trace:1"]
        let basic = try echoed(await call(basicItems).1)
        XCTAssertEqual(basic.headers, ["X-Trace: 1", "Authorization: Basic YW5uOnB3"])
        let dry = await call(basicItems + ["--dry-run"])
        XCTAssertEqual(
            dry.1, "GET \(base)/echo/b\nUser-Agent: moya-cli/0.1.0\nAccept: */*\nX-Trace: 1\nAuthorization: ••••\n")
        let file = folder + "/hb.yaml"
        let saved = await call(basicItems + ["--save", "hb.basic", "--specs", file])
        XCTAssertEqual(saved.0, 0, saved.2)
        XCTAssertEqual(
            saved.2,
            "moya-cli: saved hb.basic in \(file)\n"
                + "moya-cli: hb.basic reads the password of auth: basic from HB_PASSWORD: set it to call the saved target\n"
        )
        XCTAssertEqual(
            try String(contentsOfFile: file, encoding: .utf8),
            """
            service: hb
            baseURL: "\(base)"
            targets:
              basic:
                path: /echo/b
                headers:
                  X-Trace: "1"
                auth: { basic: { user: ann, password: "${HB_PASSWORD}" } }

            """)
        let again = await call(["hb.basic", "--specs", file], environment: ["HB_PASSWORD": "pw"])
        XCTAssertEqual(try echoed(again.1).headers, basic.headers)

        let bearerItems = [base + "/echo/c", "-A", "bearer", "-a", "t0k"]
        let bearer = try echoed(await call(bearerItems).1)
        XCTAssertEqual(bearer.headers, ["Authorization: Bearer t0k"])
        let bearerDry = await call(bearerItems + ["--dry-run"])
        XCTAssertFalse(bearerDry.1.contains("t0k"), bearerDry.1)
        for (arguments, error) in [
            (["-a", "ann"], "-a USER:PASSWORD: moya-cli asks for no password; give it after a colon"),
            (["-A", "digest", "-a", "a:b"], "-A takes basic or bearer, not 'digest'"),
            (
                ["Authorization:Bearer x", "-a", "a:b"],
                "-a gives credentials, and so does an Authorization: item; give one"
            ),
        ] {
            let refused = await call([base + "/echo/d"] + arguments)
            XCTAssertEqual(refused.0, 64)
            XCTAssertEqual(refused.2, "moya-cli: error: \(error)\n")
        }

        // A body from stdin, only when asked: JSON as JSON (its members in order), else text.
        let json = try echoed(
            await call(["PUT", base + "/echo/d", "q==x", "--body", "@-"], stdin: #"{"b":1,"a":2}"#).1)
        XCTAssertEqual([json.method, json.uri, json.body], ["PUT", "/echo/d?q=x", #"{"b":1,"a":2}"#])
        XCTAssertEqual(json.headers, ["Content-Type: application/json"])
        let text = try echoed(await call([base + "/echo/e", "--body", "@-"], stdin: "plain ${X} {y}").1)
        XCTAssertEqual([text.method, text.body], ["POST", "plain ${X} {y}"])
        // A member named as a credential, at any depth, is a secret: sent, never printed.
        let nested = #"{"user":{"name":"a","password":"s3cret","pin":1234}}"#
        let sentNested = try echoed(await call([base + "/echo/e", "--body", "@-"], stdin: nested).1)
        XCTAssertEqual(sentNested.body, nested)
        let shownNested = await call([base + "/echo/e", "--body", "@-", "--dry-run"], stdin: nested)
        XCTAssertTrue(
            shownNested.1.hasSuffix(#"{"user":{"name":"a","password":"••••","pin":1234}}"# + "\n"), shownNested.1)
        let unasked = try echoed(await call([base + "/echo/e"], stdin: "never sent").1)
        XCTAssertEqual([unasked.method, unasked.body], ["GET", ""])
        let both = await call([base + "/echo/e", "name=Ann", "--body", "@-"], stdin: "{}")
        XCTAssertEqual(both.0, 64)
        XCTAssertEqual(
            both.2,
            "moya-cli: error: --body gives the whole body, and cannot go with items that make one (name=value, "
                + "name:=json, name@FILE, @FILE) or --form\n")

        // --curl with --dry-run prints the command, to stdout, and sends nothing (no server
        // listens on port 9).
        let curl = await call(["POST", "http://127.0.0.1:9/x", "name=Ann", "--curl", "--dry-run"])
        XCTAssertEqual(curl.0, 0, curl.2)
        XCTAssertEqual(
            curl.1,
            "curl -X POST -H 'User-Agent: moya-cli/0.1.0' -H 'Accept: */*' -H 'Content-Type: application/json' "
                + #"--data-binary '{"name":"Ann"}' 'http://127.0.0.1:9/x'"# + "\n")

        // --all follows a URL's Link header.
        let pages = await call([base + "/pages/link?total=5&size=2", "--all"])
        XCTAssertEqual(pages.0, 0, pages.2)
        XCTAssertEqual(pages.1, "[\n" + (1...5).map { #"  {"id":\#($0)}"# }.joined(separator: ",\n") + "\n]\n")
    }

    /// `--save` writes where `call` will read: into the file of `./specs` that declares the
    /// service, which a call reads before the user's folder; a new service goes to the user's
    /// folder, which no nearer file hides. `localhost` and `127.0.0.1` are one origin, and
    /// `--save --record` makes the response the saved target's sample, so the target answers
    /// offline at once.
    func testSaveWritesWhereCallReadsAndRecordsTheSample() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let root = try temporaryFolder("save-where")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (home, project) = (root + "/home", root + "/project")
        try FileManager.default.createDirectory(atPath: project + "/specs", withIntermediateDirectories: true)
        let local = project + "/specs/hb.yaml"
        try """
        service: hb
        baseURL: "http://localhost:\(server.port)"
        targets:
          first:
            path: /echo/first

        """.write(toFile: local, atomically: true, encoding: .utf8)
        let environment = ["HOME": home]

        let saved = try launch(
            ["call", "\(server.baseURL)/echo/second", "q==1", "--save", "hb.second", "--record"], in: project,
            environment: environment)
        XCTAssertEqual(saved.0, 0, saved.2)
        XCTAssertTrue(saved.2.hasPrefix("moya-cli: saved hb.second in specs/hb.yaml\n"), saved.2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/.config/moya-cli/specs/hb.yaml"))
        let text = try String(contentsOfFile: local, encoding: .utf8)
        XCTAssertTrue(text.contains("  second:\n    path: /echo/second\n"), text)
        XCTAssertTrue(text.contains("    sample:\n"), text)

        let offline = try launch(["call", "hb.second", "--stub", "immediate"], in: project, environment: environment)
        XCTAssertEqual(offline.0, 0, offline.2)
        XCTAssertEqual(try echoed(offline.1).uri, "/echo/second?q=1")

        // A service no file declares goes to the user's folder, and is called from anywhere.
        let elsewhere = try launch(
            ["call", "\(server.baseURL)/echo/x", "--save", "other.x"], in: project, environment: environment)
        XCTAssertEqual(elsewhere.0, 0, elsewhere.2)
        XCTAssertEqual(
            elsewhere.2, "moya-cli: saved other.x in \(home)/.config/moya-cli/specs/other.yaml\n")
    }
}
