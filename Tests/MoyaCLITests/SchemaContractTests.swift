import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// Schemas in specs: `check` validates live responses against a target's schema or one of its
/// own, and `validate` checks every sample against its schema before anything is sent.
extension CheckCommandTests {
    func testAResponseIsCheckedAgainstTheTargetsSchemaOrItsOwn() async {
        let file = CommandTests.root + "/Tests/Fixtures/schemas/contract.yaml"
        let (status, out, error) = await check([file, "--only", "contract.user"])
        XCTAssertEqual(status, 1, error)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  contract.user: conforms  (T)
            FAIL  contract.user: stricter  (T)
                  \(file):16:13: expect.schema: $: missing required property 'email'
                  \(file):16:13: expect.schema: $.id: expected string, got integer
                  \(file):16:13: expect.schema: $.friends: expected at most 1 item, got 2

            2 checks: 1 passed, 1 failed, 0 skipped in T s

            """)
    }

    func testAFlowStepExpectsASchema() async {
        let file = CommandTests.root + "/Tests/Fixtures/schemas/contract.yaml"
        let (status, out, _) = await CommandTests.run(
            ["run", "contract.profile", "--specs", file], environment: ["TEST_SERVER": server.baseURL])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(
            timeless(out),
            """
            PASS  conforms  200  (T)
            FAIL  has an email  200  (T)
                  \(file):40:27: has an email: expect.schema: $: missing required property 'email'

            contract.profile: 2 steps: 1 passed, 1 failed, 0 skipped in T s

            """)
    }

    /// Every sample against its schema; the schemas of an OpenAPI 3.0 document (api.yaml) are
    /// read in 3.0's dialect, so its `nullable` name may be null.
    func testValidateChecksEverySampleAgainstItsSchema() async {
        let folder = CommandTests.root + "/Tests/Fixtures/schemas"
        let (status, out, error) = await CommandTests.run(["validate", folder + "/drifted.yaml"])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(out, "")
        let file = folder + "/drifted.yaml"
        XCTAssertEqual(
            error,
            """
            \(file):10:7: error: targets.user.sample: $: missing required property 'last_name'
            \(file):10:7: error: targets.user.sample: $.id: expected integer, got string
            \(file):10:7: error: targets.user.sample: $.friends[0]: missing required property 'name'
            \(file):13:9: error: targets.user.samples.other: $.id: expected >= 1, got 0
            \(file):13:9: error: targets.user.samples.other: $.first_name: expected string, got integer
            \(file):19:13: error: targets.broken.schema: cannot read nowhere.json as JSON or YAML, which a $ref in the \
            schema names
            \(file):23:13: error: targets.pet.sample: $.tag: expected string, got integer
            moya-cli: error: invalid spec: 7 problems in 1 file

            """)
        // Samples that meet their schemas, a 404 sample with its own among them, pass.
        let (valid, said, _) = await CommandTests.run(
            ["validate", folder + "/contract.yaml"], environment: ["TEST_SERVER": "http://127.0.0.1:9"])
        XCTAssertEqual(valid, 0)
        XCTAssertEqual(said, "ok: 1 service, 2 targets, 1 flow\n")
    }
}
