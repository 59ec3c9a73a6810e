import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaOpenAPI
import MoyaSpec
import Synchronization

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
/// replaces itself with this program (see `HelperProgram` in MoyaCLI), which takes:
///
///     moya-cli-openapi import FILE OUTPUT|- SERVICE|- [verbose]
///     moya-cli-openapi export SERVICE OUTPUT|- SPECPATH...
///
/// It writes what moya-cli would and returns moya-cli's statuses (`ExitStatus`). The executable
/// exits with what `run` returns; tests call `run` in-process, as they call `MoyaCLI.run`.
public enum OpenAPITool {
    /// Where the tool writes: stdout and stderr, or a test's capture.
    public struct Output: Sendable {
        /// Writes text to the output's stdout.
        public var out: @Sendable (String) -> Void
        /// Writes text to the output's stderr.
        public var error: @Sendable (String) -> Void

        public init(out: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
            self.out = out
            self.error = error
        }

        /// The process's stdout and stderr, every byte written.
        public static let standard = Output(
            out: { OpenAPITool.writeAll(STDOUT_FILENO, Array($0.utf8)) },
            error: { OpenAPITool.writeAll(STDERR_FILENO, Array($0.utf8)) })
    }

    /// Where the running tool writes (`run`'s `output`).
    @TaskLocal static var output = Output.standard

    /// Runs one command line (`import FILE OUTPUT|- SERVICE|- [verbose]`, `export …`,
    /// `import-arazzo …`, `export-arazzo …`), writing to `output`, and returns its status.
    public static func run(_ arguments: [String], output: Output = .standard) -> Int32 {
        $output.withValue(output) { perform(arguments) }
    }

    private static func perform(_ arguments: [String]) -> Int32 {
        do {
            switch arguments.first {
            case "import" where arguments.count == 4 || arguments.count == 5:
                try importDocument(
                    arguments[1], output: optional(arguments[2]), service: optional(arguments[3]),
                    verbose: arguments.count == 5 && arguments[4] == "verbose")
            case "export" where arguments.count >= 4:
                try exportService(arguments[1], output: optional(arguments[2]), paths: Array(arguments[3...]))
            case "export-arazzo" where arguments.count >= 4:
                try ArazzoTool.exportService(
                    arguments[1], output: optional(arguments[2]), paths: Array(arguments[3...]))
            case "export-postman" where arguments.count >= 4:
                try CollectionTool.exportPostman(
                    arguments[1], output: optional(arguments[2]), paths: Array(arguments[3...]))
            case "export-http" where arguments.count >= 4:
                try CollectionTool.exportHTTP(
                    arguments[1], output: optional(arguments[2]), paths: Array(arguments[3...]))
            case "import-curl":
                try CollectionTool.importCurl(Array(arguments.dropFirst()))
            case "import-postman":
                try CollectionTool.importPostman(Array(arguments.dropFirst()))
            case "import-har":
                try CollectionTool.importHAR(Array(arguments.dropFirst()))
            case "import-insomnia":
                try CollectionTool.importInsomnia(Array(arguments.dropFirst()))
            case "import-http":
                try CollectionTool.importHTTP(Array(arguments.dropFirst()))
            case "import-bruno":
                try CollectionTool.importBruno(Array(arguments.dropFirst()))
            case "import-arazzo" where arguments.count >= 3:
                try ArazzoTool.importDocument(
                    arguments[1], output: optional(arguments[2]), sources: Array(arguments[3...]))
            default:
                throw UsageError(
                    "moya-cli-openapi is run by moya-cli; use moya-cli import openapi or moya-cli export openapi")
            }
            return ExitStatus.success.rawValue
        } catch {
            // As moya-cli presents a problem (`MoyaCLI.run`): the details, one line, its status.
            let report = FailureReport(error)
            for text in report.lines { line(text) }
            return report.status.rawValue
        }
    }

    static func optional(_ argument: String) -> String? { argument == "-" ? nil : argument }

    /// `-o DIR/`, or a folder that is there: the folder, ending in `/`, that the spec is
    /// written into as SERVICE.yaml; nil for a file or stdout.
    static func folder(of output: String?) -> String? {
        output.flatMap { output in
            output.hasSuffix("/") || FileSystem.kind(output) == .directory
                ? (output.hasSuffix("/") ? output : output + "/") : nil
        }
    }

    /// Imports `file` to `output`; `appending` (a spec's `flows:`, from `import arazzo`) is
    /// added to the spec's text, which is then compiled whole.
    static func importDocument(
        _ file: String, output: String?, service: String?, appending: String = "", verbose: Bool = false
    ) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FileFailure.missing("cannot read \(file)")
        }
        // `-o DIR/`, or a folder that is there, names the spec after its service (DIR/SERVICE.yaml),
        // the file `call SERVICE.TARGET` looks at first. Its name is known once the document
        // is read; until then the folder is what counts.
        let folder = Self.folder(of: output)
        var output = folder.map { $0 + (service ?? "spec") + ".yaml" } ?? output
        // A spec reads files only in its own folder (its file root), so a spec written with -o
        // refers to a copy of the document there when the document lies elsewhere, and to
        // copies of the files the document's `$ref`s read, each at its place beside it.
        let read = Mutex<[String]>([])
        let readFile: @Sendable (String) -> [UInt8]? = { path in
            read.withLock { $0.append(path) }
            return FileManager.default.contents(atPath: path).map { Array($0) }
        }
        // The spec never replaces the document it is made from.
        func refuseReplacing(with output: String?) throws {
            guard let output, let real = FileRoot.realPath(output), real == FileRoot.realPath(file) else { return }
            throw UsageError("the spec would replace \(file), the document it is made from; write it to another file")
        }
        try refuseReplacing(with: output)
        // A folder made for the spec is removed again when the import fails: nothing is left.
        let folders = try output.map(makeFolders(for:)) ?? []
        var finished = false
        defer { if !finished { FileSystem.removeFolders(folders) } }
        func importing(service: String?, copy: String?) throws -> OpenAPIImport {
            do {
                return try OpenAPIImporter.importSpec(
                    Array(data), file: file, service: service, spec: output, copy: copy, readFile: readFile)
            } catch {
                throw InvalidDocument(TerminalText.escapingControls("\(file): \(error.message)"))
            }
        }
        var copy = output.flatMap { copyPlace(for: file, beside: $0, bytes: Array(data)) }
        var imported = try importing(service: service, copy: copy?.name)
        if let folder, output != folder + imported.service + ".yaml" {
            output = folder + imported.service + ".yaml"
            try refuseReplacing(with: output)
            // The document's copy must not take the spec's name: then it is named again, and
            // the document imported again to refer to it.
            let placed = output.flatMap { copyPlace(for: file, beside: $0, bytes: Array(data)) }
            if placed?.name != copy?.name {
                copy = placed
                read.withLock { $0 = [] }
                imported = try importing(service: imported.service, copy: copy?.name)
            }
        }
        imported.spec += appending
        // A document's text is printed with its controls escaped, never raw.
        for warning in grouped(imported.warnings, verbose: verbose) {
            line("moya-cli: warning: " + TerminalText.escapingControls(warning))
        }
        for note in imported.notes { line("moya-cli: note: " + TerminalText.escapingControls(note)) }
        var copies: [(from: String, to: String)] = []
        if let copy, let output {
            copies = [(file, copy.path)]
            let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
            let target = output.lastIndex(of: "/").map { String(output[...$0]) } ?? ""
            for path in read.withLock({ $0 }) {
                let relative = path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
                guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else {
                    line(
                        "moya-cli: warning: \(TerminalText.escapingControls(path)) is outside the document's folder, "
                            + "so it is not copied beside the spec; use the spec with --file-root")
                    continue
                }
                copies.append((path, target + relative))
            }
        }
        // The copies are in place before the spec is compiled, which reads them; those that are
        // new are removed again when the spec is not written.
        var made: [(from: String, to: String)] = []
        func undo() { for copy in made.reversed() { unlink(copy.to) } }
        // A trusted folder written into stays trusted: the spec and its copies are moya-cli's.
        let trust = SpecTrust(environment: .process)
        let trusted = output.map { trust.trustedFolders(holding: [$0] + copies.map(\.to)) } ?? []
        // `fileExists` follows links: a dangling one is not there, and the write refuses it.
        for (from, to) in copies where !FileManager.default.fileExists(atPath: to) {
            let folder = to.lastIndex(of: "/").map { String(to[..<$0]) } ?? "."
            guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
                let bytes = FileManager.default.contents(atPath: from)
            else {
                undo()
                throw FileFailure.unwritable("cannot copy \(from) to \(to)")
            }
            do {
                // Never through a link planted where the copy goes.
                try PendingFile.write(Array(bytes), to: to, followsLinks: false)
            } catch {
                undo()
                throw FileFailure.unwritable("cannot write \(to): \(error.message)")
            }
            made.append((from, to))
        }
        // What is written must compile; a spec that would not is refused whole. Printed, the
        // spec names the document from the working directory, wherever that is.
        var compiler = SpecCompiler(environment: .process)
        if output == nil { compiler.fileRoot = "/" }
        do {
            _ = try compiler.compile(Array(imported.spec.utf8), file: output ?? "\(imported.service).yaml")
        } catch {
            undo()
            throw InvalidDocument(
                "the spec made from \(file) does not validate; this is a bug in moya-cli's import",
                details: error.diagnostics.map { TerminalText.escapingControls($0.description) })
        }
        do {
            try write(imported.spec, to: output)
        } catch {
            undo()
            throw error
        }
        finished = true
        trust.renew(trusted)
        for copy in made {
            line(
                "moya-cli: copied \(TerminalText.escapingControls(copy.from)) to \(copy.to), beside the spec: "
                    + "a spec reads files only in its folder")
        }
        if imported.leftOut > 0 {
            line(
                "moya-cli: warning: \(imported.leftOut) of \(imported.operations) operations are left out; "
                    + "the warnings above say why")
        }
    }

    /// The warnings to print: each message once, at the first place it was found, with how many
    /// other places have it (`FILE#POINTER: MESSAGE`, the same MESSAGE is one kind); every
    /// one with `verbose`. A large description repeats one warning hundreds of times.
    static func grouped(_ warnings: [String], verbose: Bool) -> [String] {
        guard !verbose else { return warnings }
        func message(_ warning: String) -> Substring {
            guard let hash = warning.firstIndex(of: "#"), let colon = warning[hash...].range(of: ": ") else {
                return warning[...]
            }
            return warning[colon.upperBound...]
        }
        var counts: [Substring: Int] = [:]
        for warning in warnings { counts[message(warning), default: 0] += 1 }
        var printed: Set<Substring> = []
        return warnings.compactMap { warning in
            let kind = message(warning)
            guard printed.insert(kind).inserted else { return nil }
            let others = (counts[kind] ?? 1) - 1
            return others == 0
                ? warning : warning + " (and \(others) more like it; --verbose lists every one)"
        }
    }

    /// Makes the folder `output` is written in when it is not there yet, with the folders above
    /// it, as the user named it on the command line; the spec, the document's copy and the
    /// files its `$ref`s read all go there. Returns the folders it made, the outermost first.
    static func makeFolders(for output: String) throws -> [String] {
        switch FileSystem.makeFolders(above: output) {
        case .success(let made): return made
        case .failure(let failure): throw FileFailure.unwritable(failure.message)
        }
    }

    /// Where the document's copy goes when the spec `output` is written outside the
    /// document's folder tree: beside the spec, under the document's name, or that name
    /// numbered when another file has it. Nil when the spec's folder holds the document
    /// already.
    static func copyPlace(for document: String, beside output: String, bytes: [UInt8]) -> (path: String, name: String)?
    {
        let folder = output.lastIndex(of: "/").map { String(output[..<$0]) } ?? "."
        guard let root = FileRoot.realPath(folder.isEmpty ? "/" : folder), let real = FileRoot.realPath(document)
        else { return nil }
        if real.hasPrefix(root == "/" ? "/" : root + "/") { return nil }
        let name = String(real[real.index(after: real.lastIndex(of: "/") ?? real.startIndex)...])
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        // The spec's own name is never the copy's, or the spec would overwrite it: then the copy
        // is `museum.openapi.yaml`, still named after its source.
        let specName = output.split(separator: "/").last.map(String.init) ?? output
        for number in 1...1000 {
            let candidate =
                number == 1 ? name : name[..<dot] + ".openapi" + (number == 2 ? "" : "-\(number - 1)") + name[dot...]
            if candidate == specName { continue }
            let path = (folder.isEmpty ? "" : folder + "/") + candidate
            guard let existing = FileManager.default.contents(atPath: path) else { return (path, String(candidate)) }
            if Array(existing) == bytes { return (path, String(candidate)) }
        }
        return nil
    }

    static func exportService(_ name: String, output: String?, paths: [String]) throws {
        let service = try loadService(name, paths: paths)
        try write(try exportedDocument(of: service), to: output)
        for note in OpenAPIExporter.leftOut(service) { line("moya-cli: note: " + note) }
    }

    /// The service, its values from the environment kept as references.
    static func loadService(_ name: String, paths: [String]) throws -> ServiceSpec {
        let compiler = SpecCompiler(environment: .none)
        let service: ServiceSpec
        do {
            service = try SpecLibrary(searchPaths: paths, compiler: compiler).service(named: name)
        } catch let error as SpecError {
            throw error
        } catch let error as SpecNotFoundError {
            throw FileFailure.missing(error.description)
        } catch {
            throw UsageError("\(error)")
        }
        return service
    }

    /// The service's OpenAPI document.
    static func exportedDocument(of service: ServiceSpec) throws -> String {
        do {
            return try OpenAPIExporter.export(service)
        } catch {
            throw InvalidDocument("\(service.name): \(error.message)")
        }
    }

    /// To stdout, or whole to `output`.
    static func write(_ text: String, to output: String?) throws {
        guard let output else {
            self.output.out(text)
            return
        }
        let folder = String(output[..<(output.lastIndex(of: "/") ?? output.startIndex)])
        var info = stat()
        if !folder.isEmpty, stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            throw UsageError("cannot write \(output): the folder \(folder) does not exist")
        }
        do {
            try PendingFile.write(Array(text.utf8), to: output)
        } catch {
            throw UsageError("cannot write \(output): \(error.message)")
        }
    }

    static func line(_ text: String) {
        output.error(text + "\n")
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
}
