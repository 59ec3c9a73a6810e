import MoyaCompiler
import MoyaCore
import MoyaOpenAPI
import MoyaSpec
import MoyaTools
import Synchronization
import TestSupport
import XCTest

/// moya-cli-tools' `OpenAPITool.run` in-process, as `MoyaCLI.run` is called: the command lines
/// moya-cli hands over, what they write and the statuses they return, with no program started.
final class OpenAPIToolTests: XCTestCase {
    /// Runs the tool on `arguments`: its status, stdout and stderr.
    func run(_ arguments: [String]) -> (Int32, String, String) {
        let out = Mutex("")
        let error = Mutex("")
        let status = OpenAPITool.run(
            arguments,
            output: OpenAPITool.Output(
                out: { text in out.withLock { $0 += text } }, error: { text in error.withLock { $0 += text } }))
        return (status, out.withLock { $0 }, error.withLock { $0 })
    }

    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "moya-openapi-tool-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return folder
    }

    func testAnUnknownCommandLineIsAUsageError() {
        let (status, out, error) = run(["convert", "x"])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            "moya-cli: error: moya-cli-openapi is run by moya-cli; use moya-cli import openapi or moya-cli export "
                + "openapi\n")
    }

    func testAMissingDocumentIs66AndNamesIt() throws {
        let missing = try scratch() + "/none.yaml"
        let (status, out, error) = run(["import", missing, "-", "-"])
        XCTAssertEqual(status, 66)
        XCTAssertEqual(out, "")
        XCTAssertEqual(error, "moya-cli: error: cannot read \(missing)\n")
    }

    /// To stdout, the spec is the importer's, whole; nothing else is written.
    func testAnImportToStdoutIsTheImportersSpec() throws {
        let file = try scratch() + "/pets.yaml"
        try ImportExportTests.document.write(toFile: file, atomically: true, encoding: .utf8)
        let (status, out, error) = run(["import", file, "-", "-"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(error, "")
        XCTAssertEqual(out, try OpenAPIImporter.importSpec(Array(ImportExportTests.document.utf8), file: file).spec)
    }

    /// To a folder, the spec is named after its service and compiles there.
    func testAnImportToAFolderNamesTheSpecAfterItsService() throws {
        let folder = try scratch()
        try ImportExportTests.document.write(toFile: folder + "/pets.yaml", atomically: true, encoding: .utf8)
        let (status, out, error) = run(["import", folder + "/pets.yaml", folder + "/specs/", "-"])
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(out, "")
        let service = try SpecCompiler(environment: Environment([:])).compile(file: folder + "/specs/pets.yaml")
        XCTAssertEqual(service.targets.map(\.name), ["showPet"])
        XCTAssertEqual(service.baseURL, "https://pets.example.com/v1")
    }

    /// The bundled service exported, then imported back, has its targets.
    func testAnExportImportsBackWithEveryTarget() throws {
        let (status, out, error) = run(["export", "myservice", "-", Repository.specs])
        XCTAssertEqual(status, 0, error)
        let folder = try scratch()
        try out.write(toFile: folder + "/myservice.json", atomically: true, encoding: .utf8)
        let imported = try OpenAPIImporter.importSpec(Array(out.utf8), file: folder + "/myservice.json")
        let back = try SpecCompiler(environment: Environment([:])).compile(
            Array(imported.spec.utf8), file: folder + "/back.yaml")
        let original = try SpecCompiler(environment: Environment([:])).compile(
            file: Repository.specs + "/myservice.yaml")
        XCTAssertEqual(Set(back.targets.map(\.name)), Set(original.targets.map(\.name)))
    }

    func testAnUnknownServiceIsAUsageError() throws {
        let (status, out, error) = run(["export", "nosuch", "-", Repository.specs])
        XCTAssertEqual(status, 64)
        XCTAssertEqual(out, "")
        XCTAssertEqual(
            error,
            "moya-cli: error: no service named 'nosuch' in github, httpbin, myservice, translator "
                + "(specs read from \(Repository.specs))\n")
    }
}
