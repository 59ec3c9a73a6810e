import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A search path that does not exist, or no specs anywhere moya-cli looks by default.
public struct SpecNotFoundError: Error, Sendable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// What is there instead, such as "a FIFO", when something is.
    public var found: String?
    /// The default folders looked in, when no path was named: then the error says how to name
    /// one.
    public var defaults: [String]?

    public init(path: String, found: String? = nil, defaults: [String]? = nil) {
        self.path = path
        self.found = found
        self.defaults = defaults
    }

    public var description: String {
        if let defaults, let home = defaults.last {
            let shown = defaults.map { $0.hasPrefix("/") ? $0 : "./" + $0 }
            return "no specs: no folder at \(shown.joined(separator: " or ")); name one with --specs PATH or "
                + "MOYA_CLI_SPECS, or put spec files in \(home)"
        }
        guard let found else { return "no spec file or directory at \(path)" }
        return "\(path) is \(found), not a spec file or directory"
    }
}

/// A service that no spec declares.
public struct UnknownServiceError: Error, Sendable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// The services that do exist.
    public var known: [String]
    /// Where specs were read from.
    public var searched: [String] = []

    public var description: String {
        let place = searched.isEmpty ? "" : " (specs read from \(searched.joined(separator: ", ")))"
        return "no service named '\(name)'" + (known.isEmpty ? "" : " in \(known.joined(separator: ", "))")
            + place + Suggestion.hint(for: name, in: known)
    }
}

/// The spec files moya-cli reads: where they are, and loading them.
public struct SpecLibrary: Sendable {
    /// Files and directories to read, in order.
    public var searchPaths: [String]
    /// The compiler, with its environment.
    public var compiler: SpecCompiler
    /// Whether the search paths are layers, nearest first (the default folders: `./specs`
    /// over the user's own): a service a nearer layer declares shadows one of the same name
    /// in a farther one, rather than being a duplicate.
    public var layered = false

    /// Creates a library over explicit search paths.
    public init(searchPaths: [String], compiler: SpecCompiler) {
        self.searchPaths = searchPaths
        self.compiler = compiler
    }

    /// The search paths moya-cli uses: `--specs` if given, else `$MOYA_CLI_SPECS`
    /// (colon-separated), else every default folder that exists (`defaultPaths`), as layers
    /// (`isLayered`). Empty when none does, which `files()` reports with the ways to name specs.
    public static func searchPaths(specs: [String], environment: Environment) -> [String] {
        if !specs.isEmpty { return specs }
        if let variable = environment["MOYA_CLI_SPECS"], !variable.isEmpty {
            return variable.split(separator: ":").map(String.init)
        }
        return defaultPaths(environment: environment).filter { FileSystem.entry($0).kind == .directory }
    }

    /// Whether the search paths are the default folders, which layer (see `layered`).
    public static func isLayered(specs: [String], environment: Environment) -> Bool {
        specs.isEmpty && (environment["MOYA_CLI_SPECS"] ?? "").isEmpty
    }

    /// The folder the search paths are when they were found in the working directory
    /// (`./specs`) rather than named by `--specs`, `MOYA_CLI_SPECS` or the user's own folder:
    /// specs the user may not have written, such as a cloned repository's.
    public static func foundFolder(specs: [String], environment: Environment) -> String? {
        guard specs.isEmpty, (environment["MOYA_CLI_SPECS"] ?? "").isEmpty,
            let first = defaultPaths(environment: environment).first, FileSystem.entry(first).kind == .directory
        else { return nil }
        return first
    }

    /// Where specs are looked for when none are named: `./specs`, then the user's own folder,
    /// `$XDG_CONFIG_HOME/moya-cli/specs` (an absolute `XDG_CONFIG_HOME` only, as the XDG
    /// Base Directory spec says), else `~/.config/moya-cli/specs`.
    public static func defaultPaths(environment: Environment) -> [String] {
        var paths = ["specs"]
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(config + "/moya-cli/specs")
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(home + "/.config/moya-cli/specs")
        }
        return paths
    }

    /// Every spec file under the search paths, sorted within each directory.
    ///
    /// Each real directory is visited once and each file read once, however many links or
    /// search paths reach it, so a symlink loop ends.
    public func files() throws(SpecNotFoundError) -> [String] {
        try walk().files
    }

    /// The discovery `files()` reports, with which files a directory listed.
    func walk() throws(SpecNotFoundError) -> Walk {
        if searchPaths.isEmpty {
            throw SpecNotFoundError(path: "specs", defaults: Self.defaultPaths(environment: compiler.environment))
        }
        var walk = Walk()
        for (layer, path) in searchPaths.enumerated() {
            walk.layer = layer
            let (kind, identity) = FileSystem.entry(path)
            switch kind {
            case .file: walk.add(path, identity)
            case .directory: walk.visit(path, identity)
            case .missing: throw SpecNotFoundError(path: path)
            case .other(let what): throw SpecNotFoundError(path: path, found: what)
            }
        }
        return walk
    }

    /// The state of one discovery: files found, and what has been seen.
    struct Walk {
        var files: [String] = []
        /// The search path each file was found under, by index.
        var layers: [String: Int] = [:]
        /// The search path being walked.
        var layer = 0
        /// The files found by listing a directory, rather than named as a search path.
        var listed: Set<String> = []
        var seenFiles: Set<FileSystem.Identity> = []
        var seenDirectories: Set<FileSystem.Identity> = []

        mutating func add(_ path: String, _ identity: FileSystem.Identity?) {
            guard let identity, seenFiles.insert(identity).inserted else { return }
            files.append(path)
            layers[path] = layer
        }

        /// Every spec file under `directory`, depth first, sorted within each directory. The
        /// depth is bounded by the directories themselves, each visited at most once.
        mutating func visit(_ directory: String, _ identity: FileSystem.Identity?) {
            guard let identity, seenDirectories.insert(identity).inserted else { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                let (kind, identity) = FileSystem.entry(path)
                switch kind {
                case .file where SpecLibrary.isSpecFile(name):
                    add(path, identity)
                    listed.insert(path)
                case .directory: visit(path, identity)
                default: break
                }
            }
        }
    }

    /// Whether `path` is a folder, links followed.
    public static func isFolder(_ path: String) -> Bool {
        FileSystem.kind(path) == .directory
    }

    static func isSpecFile(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name.hasSuffix(".yml")
    }

    /// The top-level keys that make a YAML file an OpenAPI or Swagger document, a JSON Schema
    /// (which the specs' schemas refer to) or an Arazzo document, never a spec.
    static let documentKeys = ["openapi", "swagger", "$schema", "arazzo"]

    /// Whether a YAML file is a document, not a spec: one of its top-level keys is one of
    /// `documentKeys`. Asked only of a file a directory listed and that did not compile, so a
    /// spec is never read twice for it.
    static func isSchemaDocument(_ path: String) -> Bool {
        hasTopLevelKey(path, documentKeys)
    }

    /// Whether a line of the file starts with one of `keys` as a mapping key (`key:`,
    /// `"key":`, `'key':`): a top-level key of a YAML document, found without parsing it.
    package static func hasTopLevelKey(_ path: String, _ keys: [String]) -> Bool {
        firstTopLevelKey(path, keys) != nil
    }

    /// The first line of the file that starts with one of `keys` as a mapping key: the key,
    /// and the rest of its line after the colon. Nil when no line does, or the file cannot be
    /// read.
    private static func firstTopLevelKey(_ path: String, _ keys: [String]) -> (key: String, value: String)? {
        let written = keys.flatMap { key in
            [key + ":", "\"\(key)\":", "'\(key)':"].map { (key, Array($0.utf8)) }
        }
        return FileSystem.withContents(path) { bytes -> (key: String, value: String)? in
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let line = bytes[start..<end]
                if let (key, prefix) = written.first(where: { line.starts(with: $0.1) }) {
                    return (key, String(decoding: bytes[(start + prefix.count)..<end], as: UTF8.self))
                }
                start = end + 1
            }
            return nil
        } ?? nil
    }

    /// What a file under a search path declares, read from its top-level lines without parsing
    /// YAML.
    enum Declaration: Equatable {
        /// A spec's `service:` (`shop` for `service: shop`, `service: "shop"` or
        /// `service: 'shop'  # note`).
        case service(String)
        /// A document (`isSchemaDocument`).
        case document
    }

    /// The first of a `service:` line and a document's key that the file has at the top level;
    /// nil when it has neither, or the service is not a plain name (an alias, a block, an
    /// escape), which only compiling can tell. Reading stops at the first found: a spec says
    /// `service:` on its first lines, an OpenAPI document `openapi:` on its first.
    static func declaration(_ path: String) -> Declaration? {
        guard let (key, value) = firstTopLevelKey(path, ["service"] + documentKeys) else { return nil }
        return key == "service" ? plainName(value[...]).map(Declaration.service) : .document
    }

    /// A scalar written plainly or in quotes with nothing to unescape, without its comment.
    private static func plainName(_ value: Substring) -> String? {
        var value = value.trimmingPrefix { $0 == " " || $0 == "\t" }
        guard let first = value.first else { return nil }
        if first == "\"" || first == "'" {
            let body = value.dropFirst()
            guard let close = body.firstIndex(of: first) else { return nil }
            let name = body[..<close]
            guard !name.isEmpty, !name.contains("\\") else { return nil }
            return String(name)
        }
        if let comment = value.firstIndex(of: "#") { value = value[..<comment] }
        while let last = value.last, last == " " || last == "\t" || last == "\r" { value = value.dropLast() }
        // An anchor, an alias, a tag or a block scalar is the compiler's to read.
        guard let lead = value.first, !"&*!|>{[".contains(lead) else { return nil }
        return String(value)
    }

    /// The spec files under the search paths that declare service `name`, the likeliest first:
    /// a spec file named as a search path, a directory's file named after the service, then
    /// every other file whose `service:` line names it. An OpenAPI document that bears the
    /// service's name is passed by. Nil when none does and some file's service can be told
    /// only by compiling it (see `declaration`): then every spec must be read.
    func candidates(for name: String) -> [String]? {
        var found: [String] = []
        var unsure = false
        for path in searchPaths {
            switch FileSystem.kind(path) {
            case .file: found.append(path)
            case .directory:
                var layer = self
                layer.searchPaths = [path]
                guard let walk = try? layer.walk() else { continue }
                let folder = path.hasSuffix("/") ? path : path + "/"
                let byName = [".yaml", ".yml"].map { folder + name + $0 }
                for file in byName.filter(walk.files.contains) + walk.files.filter({ !byName.contains($0) }) {
                    switch Self.declaration(file) {
                    case .service(name)?: found.append(file)
                    case nil: unsure = true
                    default: continue
                    }
                }
            default: continue
            }
        }
        return found.isEmpty && unsure ? nil : found
    }

    /// The result of loading every spec: the services that compiled and every problem found.
    public struct Catalog: Sendable {
        /// Services in file order.
        public var services: [ServiceSpec]
        /// Problems in file order.
        public var diagnostics: [Diagnostic]
        /// How many spec files were read (an OpenAPI document beside them is not one).
        public var fileCount: Int
        /// In a layered library, the services a nearer layer's hid.
        public var shadowed: [Shadowing] = []
    }

    /// A service of a farther layer that a nearer layer's service of the same name hides.
    public struct Shadowing: Sendable, Equatable {
        /// The service's name.
        public var service: String
        /// The spec file that is read.
        public var kept: String
        /// The spec file that is not.
        public var hidden: String
    }

    /// Loads every spec, reporting duplicate service names; in a layered library, the
    /// nearer of two is kept and the other reported as shadowed.
    public func loadAll() throws(SpecNotFoundError) -> Catalog {
        var catalog = Catalog(services: [], diagnostics: [], fileCount: 0)
        var seen: [String: String] = [:]
        let walk = try walk()
        for file in walk.files {
            do {
                let service = try compiler.compile(file: file)
                catalog.fileCount += 1
                if let other = seen[service.name], layered, walk.layers[other] != walk.layers[file] {
                    catalog.shadowed.append(Shadowing(service: service.name, kept: other, hidden: file))
                    continue
                }
                if let other = seen[service.name] {
                    catalog.diagnostics.append(
                        Diagnostic(
                            file: file, mark: service.nameMark, keyPath: "service",
                            message: "duplicate service '\(service.name)', already declared in \(other)"))
                    continue
                }
                seen[service.name] = file
                catalog.services.append(service)
            } catch {
                // An OpenAPI document beside the specs that refer to it is not one of them.
                if walk.listed.contains(file), Self.isSchemaDocument(file) { continue }
                catalog.fileCount += 1
                catalog.diagnostics += error.diagnostics
            }
        }
        catalog.diagnostics += Self.crossServiceProblems(catalog.services)
        // The user's `secrets.yaml` is every spec's: its problems are reported once.
        var seenDiagnostics = Set<Diagnostic>()
        catalog.diagnostics = catalog.diagnostics.filter { seenDiagnostics.insert($0).inserted }
        return catalog
    }

    /// What is wrong with flow steps that call another service's target, which a spec alone
    /// cannot check: the service, the target and the params must be there.
    static func crossServiceProblems(_ services: [ServiceSpec]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for service in services {
            for flow in service.flows {
                let parts = [("steps", flow.steps), ("finally", flow.finally)]
                for (part, steps) in parts {
                    for (index, step) in steps.enumerated() {
                        guard let other = step.service else { continue }
                        let path = "flows.\(flow.name).\(part)[\(index)]"
                        func problem(_ key: String, _ message: String) {
                            problems.append(
                                Diagnostic(file: service.file, mark: step.mark, keyPath: path + key, message: message))
                        }
                        guard let called = services.first(where: { $0.name == other }) else {
                            problem(
                                ".call",
                                "no service '\(other)' is loaded"
                                    + Suggestion.hint(for: other, in: services.map(\.name)))
                            continue
                        }
                        guard let target = called.target(named: step.target) else {
                            problem(
                                ".call",
                                "service '\(other)' has no target '\(step.target)'"
                                    + Suggestion.hint(for: step.target, in: called.targets.map(\.name)))
                            continue
                        }
                        let given = Set(step.arguments.map(\.name))
                        for name in step.arguments.map(\.name) where target.param(named: name) == nil {
                            problem(
                                ".params.\(name)",
                                "unknown param '\(name)'" + Suggestion.hint(for: name, in: target.params.map(\.name)))
                        }
                        for param in target.params where param.isRequired && !given.contains(param.name) {
                            problem(".params", "the step does not give required param '\(param.name)'")
                        }
                    }
                }
            }
        }
        return problems
    }

    /// The spec files of farther layers named after `service` (`SERVICE.yaml`), which the
    /// nearer layer's `file` hides: said when a call uses it.
    public func shadowedFiles(of service: String, keptIn file: String) -> [String] {
        guard layered, let layer = searchPaths.firstIndex(where: { file == $0 || file.hasPrefix($0 + "/") })
        else { return [] }
        return searchPaths.dropFirst(layer + 1).flatMap { path in
            [".yaml", ".yml"].map { (path.hasSuffix("/") ? path : path + "/") + service + $0 }
        }.filter(FileSystem.isRegularFile)
    }

    /// Whether the spec of service `name` stubs its calls (`stub:` is there and not `never`),
    /// read from its top-level lines without compiling: so that `call` can tell, before it
    /// parses its command line, that starting the transport early would be wasted. False when
    /// no file under a search path is plainly that service's.
    public func declaresStub(service name: String) -> Bool {
        for file in candidates(for: name) ?? [] {
            let declared = FileSystem.withContents(file) { bytes in
                SpecOutline(bytes).map { outline in
                    (
                        service: outline.inlineValue(of: "service", in: bytes),
                        stub: outline.inlineValue(of: "stub", in: bytes)
                    )
                }
            }
            guard let declared = declared ?? nil, declared.service == name else { continue }
            return declared.stub.map { $0 != "never" } ?? false
        }
        return false
    }

    /// Finds one service. Only the files that may declare it are compiled (`candidates(for:)`:
    /// whatever the files are called, a large spec or directory is not read whole for one
    /// call); every spec is read only when one cannot be told without compiling it, or to say
    /// what is wrong.
    ///
    /// With `target`, only what a call of that target needs is compiled (see
    /// `SpecCompiler.compile(file:target:)`); the service then has that target, and its login's.
    public func service(named name: String, target: String? = nil) throws -> ServiceSpec {
        if layered, searchPaths.count > 1 {
            // Layer by layer, nearest first: the first layer that declares the service has it.
            for (index, path) in searchPaths.enumerated() {
                var layer = self
                layer.searchPaths = [path]
                layer.layered = false
                do {
                    return try layer.service(named: name, target: target)
                } catch is UnknownServiceError {
                    continue
                } catch is SpecNotFoundError where index > 0 {
                    continue
                }
            }
            let catalog = try loadAll()
            if !catalog.diagnostics.isEmpty { throw SpecError(catalog.diagnostics) }
            throw UnknownServiceError(name: name, known: catalog.services.map(\.name), searched: searchPaths)
        }
        for candidate in candidates(for: name) ?? [] {
            let service: ServiceSpec
            do {
                service =
                    try target.map { target throws(SpecError) in
                        try compiler.compile(file: candidate, target: target)
                    } ?? compiler.compile(file: candidate)
            } catch {
                // A spec file named as a search path may hold another service, or fail to
                // compile (an OpenAPI document): every spec is then read below, which reports
                // what is wrong as `validate` does. A file that declares the service is its spec.
                if searchPaths.contains(candidate) { continue }
                throw error
            }
            if service.name == name { return service }
        }
        let catalog = try loadAll()
        if let service = catalog.services.first(where: { $0.name == name }) { return service }
        if !catalog.diagnostics.isEmpty { throw SpecError(catalog.diagnostics) }
        throw UnknownServiceError(name: name, known: catalog.services.map(\.name), searched: searchPaths)
    }
}
