import MoyaCompiler
import MoyaCore
import MoyaServe
import MoyaSpec
import XCTest

/// serve answers as the description says: its error responses in their own shape, a body
/// required or not as `bodyRequired:` says, a concrete path before a templated one, a JSON
/// target's fields sent as a form, and a credential the environment sets held to its value.
final class ServeDocumentTests: XCTestCase {
    static let spec = """
        service: shop
        baseURL: http://127.0.0.1:1/v1
        targets:
          create:
            method: POST
            path: /lamps
            params:
              name: string
              tags: "[string]"
              watts: { type: int, optional: true, maximum: 100 }
            task: { json: { name: "{name}", tags: "{tags}", watts: "{watts}" } }
            sample: { status: 201, json: { id: 1 } }
            samples:
              badRequest: { status: 400, json: { code: 400, message: "bad", trace: x } }
              clientError: { status: 400, json: { code: 400, message: "client" } }
          patch:
            method: PATCH
            path: /lamps/{id}
            params: { id: int, name: { type: string, optional: true } }
            task: { json: { name: "{name}" } }
            bodyRequired: true
            sample: { json: { id: 1 } }
            samples:
              error: { status: 500, json: { error: { message: "oops", code: 1 } } }
          replace:
            method: PUT
            path: /lamps/{id}
            params: { id: int, name: string }
            task: { json: { name: "{name}" } }
            bodyRequired: false
            sample: { json: { id: 1 } }
          rename:
            method: POST
            path: /lamps/{id}/name
            params: { id: int, name: string }
            task: { parameters: { name: "{name}" }, encoding: httpBody }
            bodyRequired: false
            sample: { json: { id: 1 } }
          mine:
            path: /lamps/mine
            params:
              q: { type: string, optional: true }
              fields: { type: "[enum]", enum: [name, watts], optional: true }
            task: { parameters: { q: "{q}", fields: "{fields}" }, encoding: queryString, arrays: noBrackets }
            sample: { json: [] }
          one:
            path: /lamps/{id}
            params: { id: int }
            sample: { json: { id: 1 } }
            samples:
              text: { status: 400, body: "no such lamp", headers: { Content-Type: text/plain } }
        """

    func answer(
        _ router: MockRouter, _ method: String, _ uri: String, _ body: String = "",
        _ headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
    ) -> (status: Int, type: String?, body: String, allow: String?) {
        guard
            case .respond(let status, let sent, let bytes) = router.answer(
                MockRequest(method: method, uri: uri, headers: headers, body: Array(body.utf8))
            ).action
        else { return (0, nil, "", nil) }
        return (
            status, sent.first { $0.name == "Content-Type" }?.value, String(decoding: bytes, as: UTF8.self),
            sent.first { $0.name == "Allow" }?.value
        )
    }

    /// A router for the one service `text` declares.
    func router(_ text: String) throws -> MockRouter {
        MockRouter(services: [try compile(text)])
    }

    /// The error compiling `text` gives, nil when it compiles.
    func specError(_ text: String) -> String? {
        do {
            _ = try compile(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// A `4XX` sample answering a 401 or a 429 says the status it is answered with, where it
    /// holds its own (`"status": 400`); a member that is not that status, and one the schema
    /// pins, stay as the sample has them.
    func testAnErrorSampleSaysTheStatusItIsAnsweredWith() throws {
        let router = try router(
            """
            service: guarded
            baseURL: http://127.0.0.1:1
            auth: { bearer: "${GUARDED_TOKEN:-}" }
            targets:
              list:
                path: /things
                sample: { json: [] }
                samples:
                  clientError:
                    status: 400
                    json: { status: 400, error: { code: 400, message: x }, title: Bad }
              pinned:
                path: /pinned
                sample: { json: [] }
                samples:
                  clientError:
                    status: 400
                    json: { statusCode: 400, message: x }
                    schema: { properties: { statusCode: { const: 400 } } }
              coded:
                path: /coded
                sample: { json: [] }
                samples:
                  clientError: { status: 400, json: { code: 7, message: x } }
            """)
        let list = answer(router, "GET", "/things")
        XCTAssertEqual(list.status, 401)
        XCTAssertEqual(
            list.body,
            #"{"status":401,"error":{"code":401,"message":"x"},"title":"guarded.list needs an Authorization "#
                + #"header (Bearer); serve --no-auth answers without it"}"#)
        // The detail still goes in; the status the schema pins stays.
        let pinned = answer(router, "GET", "/pinned")
        XCTAssertEqual(pinned.status, 401)
        XCTAssertEqual(
            pinned.body,
            #"{"statusCode":400,"message":"guarded.pinned needs an Authorization header (Bearer); "#
                + #"serve --no-auth answers without it"}"#)
        let coded = answer(router, "GET", "/coded")
        XCTAssertEqual(coded.status, 401)
        XCTAssertTrue(coded.body.hasPrefix(#"{"code":7,"message":"guarded.coded needs"#), coded.body)
    }

    func testErrorsAnswerInTheShapeTheTargetDeclares() throws {
        let router = MockRouter(services: [try compile(Self.spec)])
        // The sample at the status, the detail in its `message`, the rest kept.
        let bad = answer(router, "POST", "/v1/lamps", #"{"tags":["a"]}"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.type, "application/json")
        XCTAssertEqual(
            bad.body,
            #"{"code":400,"message":"the request does not fit shop.create (POST /v1/lamps): param 'name' in "#
                + #"the JSON body at $.name is required","trace":"x"}"#)
        // `default` (import's `error`) for any status, inside its `error` object.
        let missing = answer(router, "PATCH", "/v1/lamps/1")
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(
            missing.body,
            #"{"error":{"message":"the request does not fit shop.patch (PATCH /v1/lamps/{id}): the body is "#
                + #"required: the target takes a JSON body","code":1}}"#)
        // A text sample is answered as it is, at the problem's status.
        let text = answer(router, "GET", "/v1/lamps/x")
        XCTAssertEqual(text.status, 400)
        XCTAssertEqual(text.type, "text/plain")
        XCTAssertEqual(text.body, "no such lamp")
        // A target that declares none answers a problem.
        let replace = answer(router, "PUT", "/v1/lamps/1", #"{}"#)
        XCTAssertEqual(replace.status, 400)
        XCTAssertEqual(replace.type, "application/problem+json")
    }

    func testABodyIsRequiredAsBodyRequiredSays() throws {
        let router = MockRouter(services: [try compile(Self.spec)])
        // Required params in a body: the body is required (no `bodyRequired:`).
        XCTAssertEqual(answer(router, "POST", "/v1/lamps").status, 400)
        // `bodyRequired: true` with only optional params.
        XCTAssertEqual(answer(router, "PATCH", "/v1/lamps/1").status, 400)
        XCTAssertEqual(answer(router, "PATCH", "/v1/lamps/1", "{}").status, 200)
        // `bodyRequired: false`: its required params are required only in a body.
        XCTAssertEqual(answer(router, "PUT", "/v1/lamps/1").status, 200)
        XCTAssertEqual(answer(router, "PUT", "/v1/lamps/1", "{}").status, 400)
        XCTAssertEqual(answer(router, "PUT", "/v1/lamps/1", #"{"name":"a"}"#).status, 200)
        // An empty body sent as a form is a form with no fields.
        let form = [(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        XCTAssertEqual(answer(router, "POST", "/v1/lamps/1/name", "", []).status, 200)
        XCTAssertEqual(answer(router, "POST", "/v1/lamps/1/name", "", form).status, 400)
        XCTAssertEqual(answer(router, "POST", "/v1/lamps/1/name", "name=a", form).status, 200)
    }

    func testAnEmptyArrayIsSentAndAFormCarriesTheJSONFields() throws {
        let router = MockRouter(services: [try compile(Self.spec)])
        XCTAssertEqual(answer(router, "POST", "/v1/lamps", #"{"name":"a","tags":[]}"#).status, 201)
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        XCTAssertEqual(answer(router, "POST", "/v1/lamps", "name=a&tags=x&tags=y&watts=5", form).status, 201)
        XCTAssertEqual(answer(router, "POST", "/v1/lamps", "name=a&tags=x&watts=500", form).status, 400)
        XCTAssertEqual(answer(router, "POST", "/v1/lamps", "tags=x", form).status, 400)
    }

    func testAConcretePathAnswersOnlyItsOwnMethods() throws {
        let router = MockRouter(services: [try compile(Self.spec)])
        XCTAssertEqual(answer(router, "GET", "/v1/lamps/mine").status, 200)
        // An `[enum]` param's items are its values.
        XCTAssertEqual(answer(router, "GET", "/v1/lamps/mine?fields=name&fields=watts").status, 200)
        XCTAssertEqual(answer(router, "GET", "/v1/lamps/mine?fields=name&fields=size").status, 400)
        // `/lamps/{id}` takes PATCH and PUT, but `/lamps/mine` is its own path.
        let patch = answer(router, "PATCH", "/v1/lamps/mine", "{}")
        XCTAssertEqual(patch.status, 405)
        XCTAssertEqual(patch.allow, "GET")
        XCTAssertEqual(answer(router, "OPTIONS", "/v1/lamps/mine", "", []).allow, "GET")
        XCTAssertEqual(answer(router, "OPTIONS", "/v1/lamps/7", "", []).allow, "GET, PATCH, PUT")
    }

    func testACredentialTheEnvironmentSetsIsHeldToItsValue() throws {
        let text = """
            service: shop
            baseURL: http://127.0.0.1:1
            auth: { bearer: "${SHOP_TOKEN:-}" }
            targets:
              list: { path: /lamps, sample: { json: [] } }
              keyed:
                path: /keyed
                auth: none
                headers: { X-Key: "${SHOP_KEY:-}" }
                sample: { json: [] }
              basic:
                path: /basic
                auth: { basic: { user: "${SHOP_USER:-}", password: "${SHOP_PASSWORD:-}" } }
                sample: { json: [] }
            """
        let environment = Environment(["SHOP_TOKEN": "t0k", "SHOP_KEY": "k3y", "SHOP_PASSWORD": "pw"])
        let service = try SpecCompiler(environment: environment).compile(Array(text.utf8), file: "specs/shop.yaml")
        let router = MockRouter(services: [service])
        let realm = #"realm="moya-cli serve""#
        func challenge(_ uri: String, _ headers: [(name: String, value: String)]) -> (Int, String?) {
            guard
                case .respond(let status, let sent, _) = router.answer(
                    MockRequest(method: "GET", uri: uri, headers: headers)
                ).action
            else { return (0, nil) }
            return (status, sent.first { $0.name == "WWW-Authenticate" }?.value)
        }
        XCTAssertEqual(challenge("/lamps", [("Authorization", "Bearer t0k")]).0, 200)
        XCTAssertEqual(
            challenge("/lamps", [("Authorization", "Bearer nope")]).1, #"Bearer \#(realm), error="invalid_token""#)
        XCTAssertEqual(challenge("/lamps", []).1, "Bearer \(realm)")
        XCTAssertEqual(challenge("/keyed", [("X-Key", "k3y")]).0, 200)
        XCTAssertEqual(challenge("/keyed", [("X-Key", "k")]).0, 401)
        // The user is unset (empty) and the password set: `:pw`.
        XCTAssertEqual(challenge("/basic", [("Authorization", "Basic OnB3")]).0, 200)
        XCTAssertEqual(challenge("/basic", [("Authorization", "Basic eDp5")]).0, 401)
    }

    func testAnIntsFormatHoldsItToItsRange() throws {
        let router = try router(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            targets:
              pet:
                path: /pets/{id}
                params: { id: { type: int, format: int64 }, n: { type: int, format: int32, optional: true } }
                task: { parameters: { n: "{n}" }, encoding: queryString }
                sample: { json: {} }
            """)
        XCTAssertEqual(answer(router, "GET", "/pets/9223372036854775807?n=2147483647").status, 200)
        let big = answer(router, "GET", "/pets/9223372036854775808")
        XCTAssertEqual(big.status, 400)
        XCTAssertTrue(big.body.contains("breaks its rules: expected an int64, got 9223372036854775808"), big.body)
        XCTAssertEqual(answer(router, "GET", "/pets/1?n=2147483648").status, 400)
        XCTAssertEqual(
            specError(
                """
                service: shop
                baseURL: http://127.0.0.1:1
                targets:
                  pet: { path: "/pets/{id}", params: { id: { type: int, format: uuid } } }
                """),
            "specs/test.yaml:4:65: error: targets.pet.params.id.format: an int's format is int32 or int64")
    }

    func testARequestBodyIsHeldToItsSchemasFormats() throws {
        let router = try router(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            targets:
              plan:
                method: POST
                path: /plans
                task: { data: '{"day":"2024-01-01"}', contentType: application/json }
                requestSchema: { type: object, properties: { day: { type: string, format: date } } }
                sample: { status: 201 }
            """)
        XCTAssertEqual(answer(router, "POST", "/plans", #"{"day":"2024-01-01"}"#).status, 201)
        let bad = answer(router, "POST", "/plans", #"{"day":"AAA"}"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.body.contains("$.day"), bad.body)
    }

    /// A form sent to a target whose body is a fixed example is held to `requestSchema:`, each
    /// field read as the schema has it; OpenAPI's `int32` bounds a JSON body's integers.
    func testAFormAndAnIntsFormatAreHeldToTheRequestSchema() throws {
        let router = try router(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            targets:
              plan:
                method: POST
                path: /plans
                task: { data: '{"name":"a","tags":["x"]}', contentType: application/json }
                requestSchema:
                  type: object
                  required: [name, tags]
                  properties:
                    name: { type: string }
                    code: { type: string }
                    level: { type: integer, format: int32 }
                    id: { type: integer, format: int64 }
                    done: { type: boolean }
                    tags: { type: array, items: { type: string } }
                    state: { enum: [open, shut] }
                sample: { status: 201 }
            """)
        let form = [(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        let json = [(name: "Content-Type", value: "application/json")]
        let rows: [(body: String, status: Int, headers: [(name: String, value: String)])] = [
            ("name=a&code=7&level=3&done=false&tags=x&state=open", 201, form),
            ("name=a&tags=x&tags=y", 201, form),
            ("name=a&state=ajar", 400, form),
            ("name=a&done=0", 400, form),
            ("name=a&level=2147483648", 400, form),
            ("code=7", 400, form),
            // A list the schema requires may be empty, which a form cannot send.
            ("name=a", 201, form),
            (#"{"name":"a","tags":[],"level":2147483647}"#, 201, json),
            (#"{"name":"a","tags":[],"level":2147483648}"#, 400, json),
            (#"{"name":"a","tags":[],"level":-2147483649}"#, 400, json),
            (#"{"name":"a","tags":[],"id":-9223372036854775809}"#, 400, json),
            (#"{"name":"a","tags":[],"id":-9223372036854775808}"#, 201, json),
        ]
        for row in rows {
            XCTAssertEqual(answer(router, "POST", "/plans", row.body, row.headers).status, row.status, row.body)
        }
        let bad = answer(router, "POST", "/plans", "name=a&state=ajar", form)
        XCTAssertTrue(bad.body.contains("$.state"), bad.body)
    }

    /// An XML body is held to `requestSchema:` as the value its elements make: children are
    /// members, a repeated element or a wrapped one (OpenAPI's `xml.wrapped`) is a list, an
    /// attribute is a member, text is read as the schema has it. XML it cannot read is a 400.
    func testAnXMLBodyIsHeldToTheRequestSchema() throws {
        let router = try router(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            targets:
              pet:
                method: POST
                path: /pets
                task: { data: "<pet><name>a</name></pet>", contentType: application/xml }
                requestSchema:
                  type: object
                  required: [name]
                  properties:
                    id: { type: integer, format: int32 }
                    name: { type: string }
                    kind: { enum: [cat, dog] }
                    photoUrls: { type: array, items: { type: string } }
                    tags: { type: array, items: { type: object, properties: { id: { type: integer } } } }
                    owner: { type: object, properties: { id: { type: integer }, vip: { type: boolean } } }
                sample: { status: 201 }
            """)
        let xml = [(name: "Content-Type", value: "application/xml; charset=utf-8")]
        let rows: [(body: String, status: Int)] = [
            (
                #"<?xml version="1.0"?><!-- a pet --><p:pet xmlns:p="urn:x"><id>7</id><name>R&amp;B &#x263A;</name>"#
                    + "<photoUrls><photoUrl>a</photoUrl><photoUrl>b</photoUrl></photoUrls>"
                    + #"<tags><tag><id>1</id></tag></tags><owner vip="true"><id>3</id></owner></p:pet>"#, 201
            ),
            ("<pet><name><![CDATA[a < b]]></name><photoUrls>one</photoUrls><kind>cat</kind></pet>", 201),
            ("<pet><name/><tags><id>1</id></tags><tags><id>2</id></tags></pet>", 201),
            ("<pet><name>a</name><kind>cow</kind><owner/></pet>", 400),
            ("<pet><name>a</name><owner></owner><photoUrls/></pet>", 201),
            ("<pet><name>a</name><id>2147483648</id></pet>", 400),
            ("<pet><name>a</name><owner><id>x</id></owner></pet>", 400),
            ("<pet><id>1</id></pet>", 400),
            ("<pet><name>a</name>", 400),
            ("<pet><name>a</pet>", 400),
            ("<pet/><pet/>", 400),
            (String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100), 400),
        ]
        for row in rows {
            XCTAssertEqual(answer(router, "POST", "/pets", row.body, xml).status, row.status, row.body)
        }
        XCTAssertTrue(
            answer(router, "POST", "/pets", "<pet><name>a</pet>", xml).body.contains("closes no open element"))
    }

    /// A multipart form's value parts are read as their params, and a required file part must
    /// come (its content is never read as a path).
    func testAMultipartFormIsReadPartByPart() throws {
        let router = try router(
            """
            service: shop
            baseURL: http://127.0.0.1:1
            targets:
              avatar:
                method: POST
                path: /avatars
                params:
                  pic: file
                  size: { type: int, optional: true, maximum: 512 }
                  public: { type: bool, optional: true }
                task:
                  multipart:
                    - { name: size, value: "{size}" }
                    - { name: public, value: "{public}" }
                    - { name: pic, file: "{pic}" }
                sample: { status: 201, json: { size: "{size}" } }
            """)
        func form(_ parts: [(name: String, file: Bool, content: String)], boundary: String = "b0undary") -> String {
            parts.map { part in
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
                    + (part.file ? "; filename=\"/etc/passwd\"\r\nContent-Type: image/png" : "")
                    + "\r\n\r\n\(part.content)\r\n"
            }.joined() + "--\(boundary)--\r\n"
        }
        let type = [(name: "Content-Type", value: #"multipart/form-data; boundary="b0undary""#)]
        let good = answer(router, "POST", "/avatars", form([("size", false, "128"), ("pic", true, "\u{89}PNG")]), type)
        XCTAssertEqual(good.status, 201)
        XCTAssertEqual(good.body, #"{"size":128}"#)
        let rows: [(body: String, status: Int)] = [
            (form([("pic", true, "x")]), 201),
            (form([("size", false, "1024"), ("pic", true, "x")]), 400),
            (form([("public", false, "maybe"), ("pic", true, "x")]), 400),
            (form([("public", false, "0"), ("pic", true, "x")]), 400),
            (form([("public", false, "false"), ("pic", true, "x")]), 201),
            (form([("size", false, "128")]), 400),
            (form([("size", false, "128"), ("pic", true, "x")]).replacing("--b0undary--\r\n", with: ""), 400),
        ]
        for row in rows {
            XCTAssertEqual(answer(router, "POST", "/avatars", row.body, type).status, row.status, row.body)
        }
        XCTAssertTrue(answer(router, "POST", "/avatars", form([("size", false, "128")]), type).body.contains("'pic'"))
    }

    func testBodyRequiredNeedsATaskWithABody() {
        XCTAssertEqual(
            specError(
                """
                service: shop
                baseURL: http://127.0.0.1:1
                targets:
                  list: { path: /lamps, bodyRequired: true }
                """),
            "specs/test.yaml:4:39: error: targets.list.bodyRequired: the task sends no body, so there is no body "
                + "to require")
    }
}
