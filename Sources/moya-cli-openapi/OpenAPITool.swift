import MoyaCore
import MoyaOpenAPI
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli import openapi` and `export openapi`, which moya-cli hands over to this program.
///
/// OpenAPIKit is large: linked into moya-cli, its type metadata made every command start
/// about 5 ms later, a call on a sample 1.77× slower. moya-cli parses the command line and
/// replaces itself with this program (see `OpenAPIHelper` in MoyaCLI), which takes:
///
///     moya-cli-openapi import FILE OUTPUT|- SERVICE|-
///     moya-cli-openapi export SERVICE OUTPUT|- SPECPATH...
///
/// It writes what moya-cli would and exits with moya-cli's statuses (`ExitStatus`).
@main
enum OpenAPITool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status: Int32
        switch arguments.first {
        case "import" where arguments.count == 4:
            status = importDocument(arguments[1], output: optional(arguments[2]), service: optional(arguments[3]))
        case "export" where arguments.count >= 4:
            status = exportService(arguments[1], output: optional(arguments[2]), paths: Array(arguments[3...]))
        default:
            fail("moya-cli-openapi is run by moya-cli; use moya-cli import openapi or moya-cli export openapi")
            status = 64
        }
        exit(status)
    }

    static func optional(_ argument: String) -> String? { argument == "-" ? nil : argument }

    static func importDocument(_ file: String, output: String?, service: String?) -> Int32 {
        guard let data = FileManager.default.contents(atPath: file) else {
            fail("cannot read \(file)")
            return 66  // missingSpec
        }
        let imported: OpenAPIImport
        do {
            imported = try OpenAPIImporter.importSpec(
                Array(data), file: file, service: service, spec: output,
                readFile: { path in FileManager.default.contents(atPath: path).map { Array($0) } })
        } catch {
            fail(TerminalText.escapingControls("\(file): \(error.message)"))
            return 65  // invalidSpec
        }
        // A document's text is printed with its controls escaped, never raw.
        for warning in imported.warnings { line("moya-cli: warning: " + TerminalText.escapingControls(warning)) }
        // What is written must compile; a spec that would not is refused whole.
        do {
            _ = try SpecCompiler(environment: .process).compile(
                Array(imported.spec.utf8), file: output ?? "\(imported.service).yaml")
        } catch {
            for diagnostic in error.diagnostics { line(TerminalText.escapingControls(diagnostic.description)) }
            fail("the spec made from \(file) does not validate; this is a bug in import openapi")
            return 65
        }
        return write(imported.spec, to: output)
    }

    static func exportService(_ name: String, output: String?, paths: [String]) -> Int32 {
        var compiler = SpecCompiler(environment: .process)
        compiler.keepsEnvironmentReferences = true
        let service: ServiceSpec
        do {
            service = try SpecLibrary(searchPaths: paths, compiler: compiler).service(named: name)
        } catch let error as SpecError {
            for diagnostic in error.diagnostics { line(diagnostic.description) }
            let files = Set(error.diagnostics.map(\.file)).count
            let problems = error.diagnostics.count == 1 ? "1 problem" : "\(error.diagnostics.count) problems"
            fail("invalid spec: \(problems) in \(files == 1 ? "1 file" : "\(files) files")")
            return 65
        } catch let error as SpecNotFoundError {
            fail(error.description)
            return 66
        } catch {
            fail("\(error)")
            return 64
        }
        do {
            return write(try OpenAPIExporter.export(service), to: output)
        } catch {
            fail("\(name): \(error.message)")
            return 65
        }
    }

    /// To stdout, or whole to `output`.
    static func write(_ text: String, to output: String?) -> Int32 {
        guard let output else {
            writeAll(STDOUT_FILENO, Array(text.utf8))
            return 0
        }
        do {
            try PendingFile.write(Array(text.utf8), to: output)
            return 0
        } catch {
            fail("cannot write \(output): \(error.message)")
            return 64
        }
    }

    static func line(_ text: String) {
        writeAll(STDERR_FILENO, Array((text + "\n").utf8))
    }

    /// Writes every byte, through short writes and interruptions.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    static func fail(_ message: String) {
        line("moya-cli: error: " + message)
    }
}
