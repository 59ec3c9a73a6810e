import MoyaCommandSupport
import MoyaCompiler
import MoyaHTTP
import MoyaOpenAPI
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `moya-cli import curl`, which moya-cli hands over as
///
///     moya-cli-openapi import-curl OUTPUT|- SERVICE|- REPORT|- file PATH|-
///     moya-cli-openapi import-curl OUTPUT|- SERVICE|- REPORT|- args ARGUMENT...
///
/// It writes the spec as `import openapi` does (stdout, a file, or DIR/SERVICE.yaml), prints
/// the summary and each thing not carried on stderr, and writes the report as JSON to REPORT.
/// An import that makes no target exits 65, after the report is written.
enum CollectionTool {
    static func importCurl(_ arguments: [String]) throws {
        guard arguments.count >= 5 else { throw UsageError("import-curl takes OUTPUT SERVICE REPORT file|args …") }
        let output = OpenAPITool.optional(arguments[0])
        let service = OpenAPITool.optional(arguments[1])
        let reportFile = OpenAPITool.optional(arguments[2])
        let result: CurlImporter.Result
        switch arguments[3] {
        case "file" where arguments.count == 5:
            let file = arguments[4]
            result = CurlImporter.importText(try readText(file), file: file == "-" ? "stdin" : file, service: service)
        case "args":
            result = CurlImporter.importArguments(Array(arguments[4...]), service: service)
        default:
            throw UsageError("import-curl takes OUTPUT SERVICE REPORT file|args …")
        }
        try finish(result.spec, service: result.service, report: result.report, output: output, reportFile: reportFile)
    }

    /// `import-postman OUTPUT|- SERVICE|- REPORT|- COLLECTION [ENVIRONMENT...]`.
    static func importPostman(_ arguments: [String]) throws {
        guard arguments.count >= 4 else {
            throw UsageError("import-postman takes OUTPUT SERVICE REPORT COLLECTION [ENVIRONMENT...]")
        }
        let output = OpenAPITool.optional(arguments[0])
        let service = OpenAPITool.optional(arguments[1])
        let reportFile = OpenAPITool.optional(arguments[2])
        let file = arguments[3]
        let collection = try readBytes(file)
        let environments = try arguments.dropFirst(4).map { (file: $0, data: try readBytes($0)) }
        let result: PostmanImporter.Result
        do {
            result = try PostmanImporter.importCollection(
                collection, file: file, environments: environments, service: service)
        } catch {
            throw InvalidDocument(TerminalText.escapingControls(error.message))
        }
        try finish(result.spec, service: result.service, report: result.report, output: output, reportFile: reportFile)
    }

    /// `import-har OUTPUT|- SERVICE|- REPORT|- FILE`.
    static func importHAR(_ arguments: [String]) throws {
        guard arguments.count == 4 else { throw UsageError("import-har takes OUTPUT SERVICE REPORT FILE") }
        let file = arguments[3]
        let result: HARImporter.Result
        do {
            result = try HARImporter.importArchive(
                try readBytes(file), file: file, service: OpenAPITool.optional(arguments[1]))
        } catch let refusal as HARImporter.Refusal {
            throw InvalidDocument(TerminalText.escapingControls(refusal.message))
        }
        try finish(
            result.spec, service: result.service, report: result.report, output: OpenAPITool.optional(arguments[0]),
            reportFile: OpenAPITool.optional(arguments[2]))
    }

    /// `import-insomnia OUTPUT|- SERVICE|- REPORT|- FILE`: one spec per workspace.
    static func importInsomnia(_ arguments: [String]) throws {
        guard arguments.count == 4 else { throw UsageError("import-insomnia takes OUTPUT SERVICE REPORT FILE") }
        let file = arguments[3]
        let workspaces: [InsomniaImporter.Workspace]
        do {
            workspaces = try InsomniaImporter.importExport(
                try readBytes(file), file: file, service: OpenAPITool.optional(arguments[1]))
        } catch let refusal as PostmanImporter.Refusal {
            throw InvalidDocument(TerminalText.escapingControls(refusal.message))
        }
        // One report for the export: its workspaces' counts and lines together.
        var report = ImportReport(format: "insomnia", source: file)
        for workspace in workspaces { report.add(workspace.report) }
        try finish(
            workspaces.filter { $0.report.targets > 0 }.map { ($0.spec, $0.service) }, report: report,
            output: OpenAPITool.optional(arguments[0]), reportFile: OpenAPITool.optional(arguments[2]))
    }

    /// `import-http OUTPUT|- SERVICE|- REPORT|- FILE...`: a spec per file, with the
    /// environments of the `http-client.env.json` beside it (of `http-client.private.env.json`,
    /// only the names are read).
    static func importHTTP(_ arguments: [String]) throws {
        guard arguments.count >= 4 else { throw UsageError("import-http takes OUTPUT SERVICE REPORT FILE...") }
        let files = Array(arguments[3...])
        var report = ImportReport(format: "http", source: files.joined(separator: ", "))
        var specs: [(spec: String, service: String)] = []
        for file in files {
            let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
            // The environment files beside it, never through a link: a file a repository
            // holds may point anywhere.
            func sidecar(_ name: String) -> String? {
                guard FileSystem.kind(folder + name) != .missing else { return nil }
                guard let text = try? readText(folder + name, followsLinks: false) else {
                    report.notCarried.append(
                        ImportReport.Item(
                            place: folder + name, what: name,
                            reason: "it is a link or not a regular file, and is not read"))
                    return nil
                }
                return text
            }
            let environments = sidecar("http-client.env.json")
            var privateNames: [String] = []
            if let text = sidecar("http-client.private.env.json"), let json = try? JSONValue(parsing: text),
                case .object(let environmentsByName) = json
            {
                for (_, values) in environmentsByName {
                    if case .object(let members) = values {
                        for (key, _) in members where !privateNames.contains(key) { privateNames.append(key) }
                    }
                }
            }
            let stem =
                file.split(separator: "/").last.map { $0.split(separator: ".").first.map(String.init) ?? "" } ?? file
            let service = OpenAPITool.optional(arguments[1]).map { files.count > 1 ? $0 + " " + stem : $0 }
            let result = HTTPFileImporter.importText(
                try readText(file), file: file, environments: environments, privateNames: privateNames, service: service
            )
            report.add(result.report)
            if result.report.targets > 0 { specs.append((result.spec, result.service)) }
        }
        try finish(
            specs, report: report, output: OpenAPITool.optional(arguments[0]),
            reportFile: OpenAPITool.optional(arguments[2]))
    }

    /// `import-bruno OUTPUT|- SERVICE|- REPORT|- FOLDER`: a Bruno collection's folder. Only its
    /// `.bru` files and `bruno.json` are read, never through a link, at most 16 folders deep.
    static func importBruno(_ arguments: [String]) throws {
        guard arguments.count == 4 else { throw UsageError("import-bruno takes OUTPUT SERVICE REPORT FOLDER") }
        let folder = arguments[3].hasSuffix("/") ? String(arguments[3].dropLast()) : arguments[3]
        let output = OpenAPITool.optional(arguments[0])
        let reportFile = OpenAPITool.optional(arguments[2])
        // One file: a bundled OpenCollection document.
        if FileSystem.kind(folder) == .file {
            do {
                let result = try OpenCollectionImporter.importDocument(
                    try readBytes(folder), file: folder, service: OpenAPITool.optional(arguments[1]))
                try finish(
                    result.spec, service: result.service, report: result.report, output: output, reportFile: reportFile)
            } catch let refusal as ImportRefusal {
                throw InvalidDocument(TerminalText.escapingControls(refusal.message))
            }
            return
        }
        guard FileSystem.kind(folder) == .directory else {
            throw FileFailure.missing(
                "\(folder) is not a folder; give the Bruno collection's folder, which holds bruno.json or opencollection.yml"
            )
        }
        // Bruno's YAML layout: `opencollection.yml` and a `.yml` file per request.
        let isYAML = FileSystem.kind(folder + "/opencollection.yml") == .file
        var files: [BrunoImporter.File] = []
        var yamlFiles: [OpenCollectionImporter.File] = []
        var skipped: [ImportReport.Item] = []
        func walk(_ relative: String, depth: Int) throws {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            guard depth < 16 else {
                skipped.append(
                    ImportReport.Item(place: path, what: "folder", reason: "it is more than 16 folders deep"))
                return
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(folder + "/" + child, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFLNK:
                    if name.hasSuffix(".bru") || name == "bruno.json" || isYAML && Self.isYAML(name) {
                        skipped.append(
                            ImportReport.Item(
                                place: folder + "/" + child, what: "link", reason: "a link is not followed"))
                    }
                case S_IFDIR where !name.hasPrefix(".") && name != "node_modules":
                    try walk(child, depth: depth + 1)
                case S_IFREG where isYAML && Self.isYAML(name):
                    yamlFiles.append(
                        OpenCollectionImporter.File(
                            path: child, bytes: try readBytes(folder + "/" + child, followsLinks: false)))
                case S_IFREG where !isYAML && (name.hasSuffix(".bru") || (relative.isEmpty && name == "bruno.json")):
                    files.append(
                        BrunoImporter.File(path: child, text: try readText(folder + "/" + child, followsLinks: false)))
                default:
                    break
                }
            }
        }
        try walk("", depth: 0)
        if isYAML {
            var result = OpenCollectionImporter.importFolder(
                yamlFiles, folder: folder, service: OpenAPITool.optional(arguments[1]))
            result.report.notCarried += skipped
            try finish(
                result.spec, service: result.service, report: result.report, output: output, reportFile: reportFile)
            return
        }
        guard files.contains(where: { $0.path == "bruno.json" }) || files.contains(where: { $0.path.hasSuffix(".bru") })
        else {
            throw InvalidDocument("\(folder) holds no bruno.json and no .bru file")
        }
        var result = BrunoImporter.importFolder(files, folder: folder, service: OpenAPITool.optional(arguments[1]))
        result.report.notCarried += skipped
        try finish(
            result.spec, service: result.service, report: result.report, output: OpenAPITool.optional(arguments[0]),
            reportFile: OpenAPITool.optional(arguments[2]))
    }

    /// The source's text: the file, or stdin for `-`, at most 64 MiB. Nothing else is read.
    static func isYAML(_ name: String) -> Bool { name.hasSuffix(".yml") || name.hasSuffix(".yaml") }

    static func readText(_ file: String, followsLinks: Bool = true) throws -> String {
        let bytes = try readBytes(file, followsLinks: followsLinks)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InvalidDocument("\(file == "-" ? "stdin" : file) is not UTF-8 text")
        }
        return text
    }

    /// The file's bytes, or stdin's for `-`, at most 64 MiB.
    static func readBytes(_ file: String, followsLinks: Bool = true) throws -> [UInt8] {
        let limit = 64 << 20
        if file == "-" {
            var input: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while input.count <= limit {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count > 0 {
                    input += buffer[..<count]
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            guard input.count <= limit else { throw InvalidDocument("stdin holds more than 64 MiB") }
            return input
        }
        do {
            return try FileSystem.contents(file, limit: limit, followsLinks: followsLinks)
        } catch .unreadable {
            throw FileFailure.missing("cannot read \(file)")
        } catch .tooLarge {
            throw InvalidDocument("\(file) is larger than 64 MiB, the most an import reads")
        } catch {
            throw FileFailure.missing("\(file): \(error.message)")
        }
    }

    /// Checks the spec compiles, writes it and the report, and prints the summary; throws
    /// (status 65) when nothing was imported.
    static func finish(_ spec: String, service: String, report: ImportReport, output: String?, reportFile: String?)
        throws
    {
        try finish([(spec, service)], report: report, output: output, reportFile: reportFile)
    }

    /// `finish` for the specs of one source (an Insomnia export's workspaces), written into
    /// the folder `output` as SERVICE.yaml each; more than one needs a folder. Each is
    /// compiled before any is written, and none is left when one cannot be.
    static func finish(
        _ specs: [(spec: String, service: String)], report: ImportReport, output: String?, reportFile: String?
    )
        throws
    {
        if let reportFile {
            do {
                try PendingFile.write(Array(report.json.utf8), to: reportFile)
            } catch {
                throw FileFailure.unwritable("cannot write \(reportFile): \(error.message)")
            }
        }
        let printable = { (text: String) in TerminalText.escapingControls(text) }
        OpenAPITool.line("moya-cli: import: " + report.summary)
        for line in report.lines { OpenAPITool.line("moya-cli: warning: " + printable(line)) }
        guard report.targets > 0 else {
            throw InvalidDocument(
                report.requests == 0
                    ? "\(printable(report.source)) holds no request"
                    : "\(printable(report.source)): no request could be imported; the lines above say why")
        }
        let folder = OpenAPITool.folder(of: output)
        let written = specs.filter { !$0.spec.isEmpty }
        if written.count > 1, folder == nil {
            throw UsageError(
                "\(printable(report.source)) makes \(written.count) specs (\(written.map(\.service).joined(separator: ", "))); "
                    + "write them into a folder with -o DIR/")
        }
        let paths = written.map { entry in folder.map { $0 + entry.service + ".yaml" } ?? output }
        let folders = try paths.first.flatMap { $0 }.map(OpenAPITool.makeFolders(for:)) ?? []
        var finished = false
        defer { if !finished { FileSystem.removeFolders(folders) } }
        for (entry, path) in zip(written, paths) {
            var compiler = SpecCompiler(environment: .none)
            if path == nil { compiler.fileRoot = "/" }
            do {
                _ = try compiler.compile(Array(entry.spec.utf8), file: path ?? "\(entry.service).yaml")
            } catch {
                throw InvalidDocument(
                    "the spec made from \(printable(report.source)) does not validate; this is a bug in moya-cli's import",
                    details: error.diagnostics.map { printable($0.description) })
            }
        }
        // A trusted folder written into stays trusted: the specs are moya-cli's.
        let trust = SpecTrust(environment: .process)
        let trusted = trust.trustedFolders(holding: paths.compactMap { $0 })
        var made: [String] = []
        for (entry, path) in zip(written, paths) {
            do {
                try OpenAPITool.write(entry.spec, to: path)
            } catch {
                for file in made { unlink(file) }
                throw error
            }
            if let path { made.append(path) }
        }
        finished = true
        trust.renew(trusted)
    }

    // MARK: Export

    /// `export postman SERVICE`: the collection to `output` or stdout, then what it does not
    /// carry on stderr.
    /// With `-o FILE`, each environment is written beside it as
    /// `SERVICE.ENV.postman_environment.json` (`import postman --environment` reads it), never
    /// over a different file; all of them and the collection, or none.
    static func exportPostman(_ name: String, output: String?, paths: [String]) throws {
        let (text, environments, notes) = PostmanExporter.export(try OpenAPITool.loadService(name, paths: paths))
        var lines = notes
        var files: [(path: String, text: String)] = []
        if let output {
            let folder = String(output[..<(output.lastIndex(of: "/") ?? output.startIndex)])
            for (environment, text) in environments {
                // A stranger's spec may name an environment `../x`: the name is a file name's
                // part only as letters, digits, `-` and `_`, the rest percent-encoded.
                let part = PercentEncoding.encode(environment) {
                    $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber)
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
                }
                let file = (folder.isEmpty ? "" : folder + "/") + "\(name).\(part).postman_environment.json"
                if let existing = FileManager.default.contents(atPath: file), Array(existing) != Array(text.utf8) {
                    throw UsageError(
                        "\(file) exists and holds another environment; move it, or write to another folder")
                }
                files.append((file, text))
            }
        } else if !environments.isEmpty {
            lines.append(
                "environments: written only beside a file; give -o FILE.json to write "
                    + environments.map { "\(name).\($0.name).postman_environment.json" }.joined(separator: ", "))
        }
        try OpenAPITool.write(text, to: output)
        var written: [String] = []
        for file in files {
            do {
                try PendingFile.write(Array(file.text.utf8), to: file.path)
                written.append(file.path)
            } catch {
                // All of them and the collection, or none.
                for path in written + [output].compactMap({ $0 }) { unlink(path) }
                throw FileFailure.unwritable("cannot write \(file.path): \(error.message)")
            }
        }
        exported(lines)
    }

    /// `export http SERVICE`: the `.http` file, and `http-client.env.json` beside it when the
    /// spec has environments. An environment file already there is never replaced by another.
    static func exportHTTP(_ name: String, output: String?, paths: [String]) throws {
        let (text, environments, notes) = HTTPFileExporter.export(try OpenAPITool.loadService(name, paths: paths))
        var lines = notes
        var environmentFile: String?
        if let environments {
            if let output {
                let folder = output.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                    .joined(separator: "/")
                let file = (folder.isEmpty && !output.hasPrefix("/") ? "" : folder + "/") + "http-client.env.json"
                if let existing = FileManager.default.contents(atPath: file),
                    Array(existing) != Array(environments.utf8)
                {
                    throw UsageError(
                        "\(file) exists and holds other environments; move it, or write the .http file to another folder"
                    )
                }
                environmentFile = file
            } else {
                lines.append(
                    "environments: written only beside a file; give -o FILE.http to write http-client.env.json")
            }
        }
        try OpenAPITool.write(text, to: output)
        if let environmentFile, let output {
            do {
                try PendingFile.write(Array(environments.map { Array($0.utf8) } ?? []), to: environmentFile)
            } catch {
                // Both files or neither.
                unlink(output)
                throw FileFailure.unwritable("cannot write \(environmentFile): \(error.message)")
            }
        }
        exported(lines)
    }

    static func exported(_ notes: [String]) {
        for note in notes { OpenAPITool.line("moya-cli: note: " + TerminalText.escapingControls(note)) }
    }
}
