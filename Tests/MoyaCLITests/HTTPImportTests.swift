import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import http` through the command: a file with what `.http` files hold (file
/// variables, a title and an `@name`, a query continued on indented lines, a bearer token
/// from a variable (bearer auth), a JSON body, a response handler, an assertion (a check, but
/// for its param without a value), `$env`, `@no-redirect`, a
/// gRPC request) and its environment files, private values never written. The whole spec,
/// the warnings, and what a call of it sends under `--env dev`.
final class HTTPImportTests: XCTestCase {
    func testTheWholeSpecOfAFileWithItsEnvironments() async throws {
        let folder = NSTemporaryDirectory() + "http-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        try #"""
        @token = t-live-9
        @page = 2

        ### List orders
        # @name listOrders
        GET {{host}}/orders
          ?page={{page}}
          &size=50
        Accept: application/json
        Authorization: Bearer {{token}}

        ### Create an order
        POST {{host}}/orders HTTP/1.1
        Content-Type: application/json
        X-Api-Key: k-1

        {
          "sku": "A-1",
          "qty": 2
        }

        > {%
          client.global.set("id", response.body.id);
        %}

        ### Follow the order
        # @no-redirect
        GET {{host}}/orders/{{$env.ORDER_ID}}

        ?? status == 200

        ###
        GRPC grpcb.in:9000/hello.HelloService/SayHello
        { "greeting": "world" }

        """#.write(toFile: folder + "/shop.http", atomically: true, encoding: .utf8)
        try #"""
        { "$shared": { "host": "https://api.shop.example" }, "dev": { "host": "http://localhost:8080" } }

        """#.write(toFile: folder + "/http-client.env.json", atomically: true, encoding: .utf8)
        try #"""
        { "dev": { "token": "t-dev-secret" } }

        """#.write(
            toFile: folder + "/http-client.private.env.json", atomically: true, encoding: .utf8)
        let (status, out, error) = await CommandTests.run(["import", "http", "shop.http"], in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            out,
            #"""
            # Imported by moya-cli import http from shop.
            service: shop
            baseURL: "${HOST:-https://api.shop.example}"
            environments:
              dev: { baseURL: "http://localhost:8080" }
            targets:
              listOrders:
                summary: List orders
                params:
                  page: { type: string, default: "2", description: "{{page}} in the file" }
                path: /orders
                headers: { Accept: application/json }
                auth: { bearer: "${TOKEN:-}" }
                task:
                  parameters:
                    - page: "{page}"
                    - size: "50"
                  encoding: queryString
                  arrays: noBrackets
                  bools: literal
              createAnOrder:
                summary: Create an order
                method: POST
                path: /orders
                headers: { X-Api-Key: "${X_API_KEY:-}" }
                task:
                  data: "{\n  \"sku\": \"A-1\",\n  \"qty\": 2\n}"
                  contentType: application/json
                checks:
                  - name: example
                    live: false
              followTheOrder:
                summary: Follow the order
                params:
                  ORDER_ID: { type: string, description: "{{ORDER_ID}} in the file" }
                path: "/orders/{ORDER_ID}"
                followRedirects: false

            """#)
        XCTAssertEqual(
            error,
            #"""
            moya-cli: import: 4 requests → 3 targets in 1 service; 4 things not carried, listed below
            moya-cli: warning: http-client.env.json: not carried: token: a secret is never written; set TOKEN before calling
            moya-cli: warning: shop.http:22: not carried: script: a script is never run; what it sets or tests is not carried
            moya-cli: warning: shop.http:28: not carried: assertions: the check they make needs a value for ORDER_ID, which the source does not give; write the check with one
            moya-cli: warning: shop.http:33: not carried: request: a GRPC request is not HTTP; it has no place in a spec yet
            moya-cli: warning: set TOKEN, X_API_KEY before calling: the source's credentials are read from the environment, never written into the spec

            """#)
        for secret in ["t-live-9", "t-dev-secret", "k-1"] { XCTAssertFalse((out + error).contains(secret), secret) }

        try out.write(toFile: folder + "/shop.yaml", atomically: true, encoding: .utf8)
        let (called, sent, callError) = await CommandTests.run(
            ["call", "shop.listOrders", "--specs", "shop.yaml", "--env", "dev", "--dry-run", "--show-secrets"],
            environment: ["TOKEN": "t-dev-secret"], in: folder)
        XCTAssertEqual(called, 0, callError)
        XCTAssertEqual(
            sent,
            "GET http://localhost:8080/orders?page=2&size=50\nUser-Agent: moya-cli/0.1.0\n"
                + "Accept: application/json\nAuthorization: Bearer t-dev-secret\n")
    }
}
