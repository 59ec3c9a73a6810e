import MoyaCLI
import MoyaCore
import XCTest

/// OpenAPI's `style` and `explode`, imported and sent: arrays as the document serialises
/// them, booleans as words, label and matrix path params, and params whose names are also
/// moya-cli's options.
extension ImportOpenAPITests {
    func testImportedParamsAreSentAsTheDocumentSerialisesThem() async throws {
        try await assertImport(
            fixtures + "/styles-3.0.yaml", golden: fixtures + "/styles-3.0.spec.yaml", warnings: [])
        let spec = fixtures + "/styles-3.0.spec.yaml"
        let rows: [(call: [String], line: String)] = [
            (
                [
                    "styles.listItems", "--tags", "a", "--tags", "b c", "--fields", "x", "--fields", "y", "--ids", "1",
                    "--ids", "2", "--colors", "red", "--colors", "blue", "--archived", "true",
                ],
                "GET https://api.example.com/items?archived=true&colors=red%7Cblue&fields=x%2Cy&ids=1%202&tags=a&tags=b%20c"
            ),
            (
                ["styles.createItem", "--notify", "a", "--notify", "b", "--dryRun", "false", "--name", "n"],
                "POST https://api.example.com/items?notify=a&notify=b&dryRun=false"
            ),
            (["styles.showItem", "--id", "5", "version=v1"], "GET https://api.example.com/items/.5/;version=v1"),
            // An object: deepObject keys, and exploded form's members as keys of their own.
            (
                [
                    "styles.search", "--filter_color", "red", "--filter_size", "2", "--filter_tags", "a",
                    "--filter_tags",
                    "b c", "--limit", "5",
                ],
                "GET https://api.example.com/search?filter%5Bcolor%5D=red&filter%5Bsize%5D=2&filter%5Btags%5D=a&filter%5Btags%5D=b%20c&limit=5"
            ),
        ]
        for row in rows {
            let (status, out, error) = await CommandTests.run(["call"] + row.call + ["--specs", spec, "--dry-run"])
            XCTAssertEqual(status, 0, error)
            XCTAssertEqual(out.split(separator: "\n").first.map(String.init), row.line, "\(row.call)")
        }
    }

    /// A param named like one of moya-cli's options gets a `validate` warning, and a call
    /// that leaves it out is told how to give it.
    func testAParamNamedLikeAnOptionIsNamedNotGuessed() async throws {
        let spec = fixtures + "/styles-3.0.spec.yaml"
        let (valid, _, warning) = await CommandTests.run(["validate", spec])
        XCTAssertEqual(valid, 0)
        XCTAssertEqual(
            warning,
            "\(spec):44:7: warning: targets.showItem.params.version: --version is moya-cli's own option; "
                + "call takes this param as version=VALUE\n")
        let (status, _, error) = await CommandTests.run(["call", "styles.showItem", "--specs", spec, "--id", "5"])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(
            error,
            "moya-cli: error: showItem needs param 'version'; --version is moya-cli's own option, "
                + "so give the param as version=VALUE\n")
    }

    /// An exploded array in a block that writes brackets, and a style on a param that is not
    /// an array, are spec errors that name the fix.
    func testStylesThatCannotBeSentAreSpecErrors() async throws {
        let directory = try temporaryDirectory()
        let file = directory + "/bad.yaml"
        try """
        service: bad
        baseURL: http://127.0.0.1:1
        targets:
          search:
            params:
              tags: { type: "[string]", style: form }
              name: { type: string, explode: false }
            path: /search
            task: { parameters: { tags: "{tags}", name: "{name}" }, encoding: queryString }

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, _, error) = await CommandTests.run(["validate", file])
        XCTAssertEqual(status, 65)
        XCTAssertEqual(
            error,
            """
            \(file):7:38: error: targets.search.params.name.explode: style and explode say how an array or object is sent (a scalar takes only label or matrix); this param is of type string
            \(file):9:27: error: targets.search.task.parameters.tags: {tags} is exploded (tags=a&tags=b), but this block writes arrays with brackets; set the task's arrays: noBrackets, or write the block as a list of one-key mappings
            moya-cli: error: invalid spec: 2 problems in 1 file

            """)
    }
}
