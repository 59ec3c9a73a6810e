import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import bruno` on a collection folder written here in Bruno's format (bruno.json,
/// collection.bru with auth and headers, a folder with folder.bru, requests with params,
/// headers, a JSON body, assertions, scripts and docs, environments with secrets): the whole
/// spec and warnings, and the assertions run as checks against a real server.
final class BrunoImportTests: XCTestCase {
    func files(baseURL: String) -> [String: String] {
        [
            "bruno.json": #"{ "version": "1", "name": "Shop API", "type": "collection" }"#,
            "collection.bru": """
            headers {
              X-Client: moya
            }

            auth {
              mode: bearer
            }

            auth:bearer {
              token: {{token}}
            }
            """,
            "users/folder.bru": """
            meta {
              name: Users
            }
            """,
            "users/Get user.bru": """
            meta {
              name: Get user
              type: http
              seq: 1
            }

            get {
              url: {{baseUrl}}/json?fields=name
              body: none
              auth: inherit
            }

            params:query {
              fields: name
              ~debug: 1
            }

            headers {
              Accept: application/json
            }

            assert {
              res.status: eq 200
              res.body.id: isNumber
              res.body.first_name: eq Harry
              res.body.friends: length 2
              res.headers.content-type: contains json
              res.body.score: gt 9
              res.body.house: isTruthy
            }

            tests {
              test("ok", () => expect(res.status).to.equal(200));
            }

            docs {
              Reads one user.
            }
            """,
            "users/Create user.bru": """
            meta {
              name: Create user
              type: http
              seq: 2
            }

            post {
              url: {{baseUrl}}/users
              body: json
              auth: basic
            }

            auth:basic {
              username: admin
              password: {{adminPassword}}
            }

            body:json {
              {
                "name": "Ann",
                "password": "hunter2"
              }
            }

            script:pre-request {
              req.setHeader("X-Time", Date.now());
            }
            """,
            "environments/Local.bru": """
            vars {
              baseUrl: \(baseURL)
            }
            """,
            "environments/Staging.bru": """
            vars {
              baseUrl: https://staging.shop.example
              ~old: 1
            }
            vars:secret [
              token,
              adminPassword
            ]
            """,
        ]
    }

    func testACollectionFolder() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "bruno-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        for (path, text) in files(baseURL: server.baseURL) {
            let file = folder + "/shop/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let (status, out, error) = await CommandTests.run(
            ["import", "bruno", "shop", "-o", "specs/", "--service", "shop"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            """
            moya-cli: import: 2 requests → 2 targets in 1 service; 7 things not carried, listed below
            moya-cli: warning: users/Get user.bru:1: not carried: query debug: a disabled query param is left out
            moya-cli: warning: environments/Staging.bru: not carried: old: a disabled value is left out
            moya-cli: warning: environments/Staging.bru: not carried: token: a secret is never written; set TOKEN before calling
            moya-cli: warning: environments/Staging.bru: not carried: adminPassword: a secret is never written; set \
            ADMIN_PASSWORD before calling
            moya-cli: warning: users/Create user.bru:25: not carried: script:pre-request: a script is never run; what it \
            sets or tests is not carried
            moya-cli: warning: users/Get user.bru:29: not carried: assert res.body.house: isTruthy: the assertion has no \
            check of the same meaning
            moya-cli: warning: users/Get user.bru:32: not carried: tests: a script is never run; what it sets or tests is \
            not carried
            moya-cli: warning: set TOKEN, ADMIN_PASSWORD, PASSWORD before calling: the source's credentials are read from \
            the environment, never written into the spec

            """)
        let spec = try String(contentsOfFile: folder + "/specs/shop.yaml", encoding: .utf8)
        XCTAssertTrue(
            spec.contains(
                """
                    checks:
                      - name: example
                        expect:
                          status: 200
                          headers: { content-type: { contains: json } }
                          json:
                            "$.id": { type: number }
                            "$.first_name": Harry
                            "$.friends": { count: 2 }
                            "$.score": { gt: 9 }

                """), spec)
        XCTAssertTrue(
            spec.contains("      data: \"{\\\"name\\\":\\\"Ann\\\",\\\"password\\\":\\\"${PASSWORD:-}\\\"}\"\n"), spec)
        XCTAssertFalse(spec.contains("hunter2"))
        // The assertions hold against the server, as they did in Bruno, and can fail.
        try await assertImportedCheckHoldsAndCanFail(
            "shop.usersGetUser", folder: folder, replacing: "\"$.first_name\": Harry", with: "\"$.first_name\": Ron")
    }
}
