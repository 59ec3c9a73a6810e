import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// One service-wide set of what is secret (`ServiceSpec.boundSecrets`), which serve's log,
/// mcp's answers before a call and a recording's diff all mask: the environment's secrets and
/// what the spec's own text writes, and nothing else.
final class BoundSecretsTests: XCTestCase {
    func testTheEnvironmentsAndTheTextsSecretsAreOneSet() throws {
        let spec = """
            service: vault
            baseURL: http://127.0.0.1:9
            headers:
              X-Api-Key: { value: "${VAULT_KEY}", secret: true }
              X-Written: { value: "wr1tten-h3ader", secret: true }
              X-Plain: visible
            targets:
              open:
                path: /open
                params:
                  pin: { type: string, secret: true, default: "d3fault-p1n" }
                  page: { type: int, default: 1 }
                checks:
                  - { name: with pin, params: { pin: "ch3ck-p1n" } }

            """
        let compiler = SpecCompiler(environment: Environment(["VAULT_KEY": "env-k3y-value"]))
        let service = try compiler.compile(Array(spec.utf8), file: "vault.yaml")
        XCTAssertEqual(service.boundSecrets.values, ["env-k3y-value", "wr1tten-h3ader", "d3fault-p1n", "ch3ck-p1n"])
        XCTAssertEqual([service, service].boundSecrets, service.boundSecrets)
    }
}
