import MoyaHTTP
import MoyaSpec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The spec folders the user trusts to read the environment, as mise's `trust` and direnv's
/// `allow` keep theirs: a folder found in the working directory (`./specs`, a cloned
/// repository's, say) reads no set `${VAR}` until the user runs `moya-cli trust`, and again
/// after any of its spec files changes.
///
/// The list is `$XDG_STATE_HOME/moya-cli/trusted` (else `~/.local/state/moya-cli/trusted`):
/// one line per folder, the SHA-256 of its spec files and the folder's real path; or, for a
/// folder trusted with `--always` (the user's own project), `always` in place of the digest:
/// its edits keep it trusted, for as long as the user owns it and no one else may write it.
///
/// Trusting a folder covers the programs its specs' `secrets:` run as well as the specs: each
/// file a `command` names by a path (the program, a script it is given) is recorded by its
/// real path and SHA-256 as `DIGEST program:PATH`, and runs only as it was when trusted.
package struct SpecTrust {
    /// What the list holds in place of a digest for a folder trusted whatever its edits.
    static let always = "always"

    /// The list's path; nil when neither `XDG_STATE_HOME` nor `HOME` says where it is.
    let file: String?

    package init(environment: Environment) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            file = state + "/moya-cli/trusted"
        } else if let home = environment["HOME"], !home.isEmpty {
            file = home + "/.local/state/moya-cli/trusted"
        } else {
            file = nil
        }
    }

    /// What the list says of a folder.
    package enum Standing: Equatable {
        case trusted
        case unknown
        /// Trusted once, and a spec file has changed since.
        case changed
    }

    /// The folder's standing; its files are read only when the list names it, and `reading`,
    /// a spec already read whole, is digested from its bytes.
    package func standing(of folder: String, reading: (file: String, bytes: [UInt8])? = nil) -> Standing {
        guard let real = FileRoot.realPath(folder), let recorded = entries()[real] else { return .unknown }
        if recorded == Self.always { return Self.ownership(of: real) == nil ? .trusted : .unknown }
        return recorded == Self.digest(of: real, reading: reading) ? .trusted : .changed
    }

    /// Why a found folder may read no environment variable, or nil when it may. `reading` is
    /// the spec that asked, as the compiler read it: the call reads it once.
    package func refusal(forFound folder: String, reading: (file: String, bytes: [UInt8])? = nil) -> String? {
        let shown = folder.hasPrefix("/") ? folder : "./" + folder
        switch standing(of: folder, reading: reading) {
        case .trusted: return nil
        case .unknown:
            return "\(shown) was found in the working directory and is not trusted, so its specs read no "
                + "environment variable; run 'moya-cli trust \(folder)' once you have read them"
        case .changed:
            return "a spec in \(shown) changed since you trusted the folder, so its specs read no environment "
                + "variable; run 'moya-cli trust \(folder)' again once you have read them"
        }
    }

    /// Records `folder` as trusted with its spec files as they are now; returns the real
    /// path and how many spec files it has.
    /// With `always`, the folder stays trusted through its edits; it must be the user's own,
    /// which no one else may write.
    package func trust(_ folder: String, always: Bool = false) throws -> (path: String, files: Int) {
        guard let real = FileRoot.realPath(folder) else {
            throw FileFailure.missing("no folder at \(folder)")
        }
        if always, let problem = Self.ownership(of: real) {
            throw UsageError("trust --always takes a folder of your own: \(real) \(problem)")
        }
        var entries = entries()
        entries[real] = always ? Self.always : Self.digest(of: real)
        if !always {
            for program in Self.programs(in: real) { entries[Self.programKey + program.path] = program.digest }
        }
        try write(entries)
        return (real, Self.specFiles(in: real).count)
    }

    // MARK: - Programs

    /// How a program's line names it: `program:` before its real path.
    static let programKey = "program:"

    /// The files a `command` source runs or reads as a program, by real path, each with its
    /// SHA-256: the program, written as a path (beside the declaring file, as it is run),
    /// wherever it is, since it runs wherever it is; and each argument written as a path (a
    /// script it is given) that names a file inside the spec's file root, read as every file a
    /// spec names is (no device, no link out, bounded). A bare name is looked up on `PATH`, the
    /// user's own programs, and is not one of them.
    package static func programs(of source: SecretSource) -> [(path: String, digest: String)] {
        guard case .command(let argv) = source.kind else { return [] }
        let root = FileRoot(spec: source.file)
        var found: [(path: String, digest: String)] = []
        for (index, word) in argv.enumerated() where word.contains("/") {
            let beside = word.hasPrefix("/") ? word : ServiceSpec.path(word, inSpec: source.file)
            if index == 0 {
                if let path = FileRoot.realPath(beside), let digest = fileDigest(path) { found.append((path, digest)) }
                continue
            }
            for candidate in Set([beside, word]) {
                guard let path = try? root.file(candidate), let bytes = try? root.read(candidate) else { continue }
                found.append((path, hex(SHA256.hash(bytes))))
            }
        }
        return found
    }

    /// Why the programs `source` names may not run from the trusted `folder`: one of them is
    /// not as it was when the folder was trusted. Nil when they are, or when the folder is
    /// trusted whatever its edits.
    package func refusal(ofProgramsOf source: SecretSource, in folder: String) -> String? {
        let entries = entries()
        guard let real = FileRoot.realPath(folder), entries[real] != Self.always else { return nil }
        for program in Self.programs(of: source) where entries[Self.programKey + program.path] != program.digest {
            return "\(program.path) changed since you trusted \(real), or was not there, so it does not run; run "
                + "'moya-cli trust \(real)' again once you have read it"
        }
        return nil
    }

    /// The programs the specs in `folder` run for their secrets, each with its SHA-256.
    private static func programs(in folder: String) -> [(path: String, digest: String)] {
        let compiler = SpecCompiler(environment: Environment([:]))
        var programs: [(path: String, digest: String)] = []
        for file in specFiles(in: folder) {
            guard let service = try? compiler.compile(file: file) else { continue }
            for source in service.secretSources.values where source.origin == .spec {
                for program in Self.programs(of: source) where !programs.contains(where: { $0.path == program.path }) {
                    programs.append(program)
                }
            }
        }
        return programs
    }

    /// The SHA-256 of a regular file's bytes (at most 64 MiB, never a device); nil when there
    /// is none.
    static func fileDigest(_ path: String) -> String? {
        guard let bytes = try? FileSystem.contents(path, limit: 64 << 20) else { return nil }
        return hex(SHA256.hash(bytes))
    }

    /// The folders trusted whatever their edits, by real path, sorted.
    package func alwaysTrusted() -> [String] {
        entries().filter { $0.value == Self.always }.keys.sorted()
    }

    /// Why `folder` cannot be trusted whatever its edits, or nil when it can: it is the user's,
    /// and neither its group nor others may write it.
    static func ownership(of folder: String) -> String? {
        var status = stat()
        guard stat(folder, &status) == 0 else { return "cannot be read" }
        if status.st_uid != geteuid() { return "is owned by another user (uid \(status.st_uid))" }
        if status.st_mode & 0o022 != 0 { return "may be written by its group or others; chmod go-w it first" }
        return nil
    }

    // MARK: - moya-cli's own writes

    /// The trusted folders that hold any of `files` (paths a write of moya-cli's is about to
    /// make or change) and are trusted as they are now.
    package func trustedFolders(holding files: [String]) -> [String] {
        let entries = entries()
        guard !entries.isEmpty else { return [] }
        let places = files.compactMap { file -> String? in
            let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
            return FileRoot.realPath(folder.isEmpty ? "/" : folder)
        }
        return entries.keys.sorted().filter { folder in
            folder.hasPrefix("/")
                && places.contains { $0 == folder || $0.hasPrefix(folder + "/") }
                && entries[folder] == Self.digest(of: folder)
        }
    }

    /// Records `folders` as trusted with their spec files as they are now: after moya-cli's
    /// own write into folders that were trusted just before it (`trustedFolders(holding:)`).
    package func renew(_ folders: [String]) {
        guard !folders.isEmpty else { return }
        var entries = entries()
        for folder in folders { entries[folder] = Self.digest(of: folder) }
        try? write(entries)
    }

    /// Runs `write`, moya-cli's own write of `files` (`--save`, `--record`), and keeps the
    /// folders holding them trusted when they were just before it: the user read them, and
    /// the change is moya-cli's. Only then: a folder that had changed, or was never trusted,
    /// stays as it was.
    package func keeping<Result, Failure: Error>(
        writing files: [String], _ write: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let folders = trustedFolders(holding: files)
        let result = try write()
        renew(folders)
        return result
    }

    /// Forgets `folder`; whether the list had it.
    package func revoke(_ folder: String) throws(FileFailure) -> Bool {
        let real = FileRoot.realPath(folder) ?? folder
        var entries = entries()
        guard entries.removeValue(forKey: real) != nil else { return false }
        try write(entries)
        return true
    }

    /// The list: digest by real path. A line that does not read as one is ignored.
    private func entries() -> [String: String] {
        guard let file, let data = FileManager.default.contents(atPath: file) else { return [:] }
        var entries: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let digest = String(line[..<space])
            let path = String(line[line.index(after: space)...])
            guard digest.utf8.count == 64 || digest == Self.always,
                path.hasPrefix("/") || path.hasPrefix(Self.programKey + "/")
            else { continue }
            entries[path] = digest
        }
        return entries
    }

    private func write(_ entries: [String: String]) throws(FileFailure) {
        guard let file else {
            throw FileFailure.unwritable("no place for the trust list: set HOME or XDG_STATE_HOME")
        }
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileFailure.unwritable("cannot make \(folder) for the trust list")
        }
        let text = entries.keys.sorted().map { "\(entries[$0] ?? "") \($0)\n" }.joined()
        do {
            try PendingFile.write(Array(text.utf8), to: file, mode: 0o600, followsLinks: false)
        } catch {
            throw FileFailure.unwritable("cannot write the trust list \(file): \(error.message)")
        }
    }

    /// The spec files of `folder`, as the spec library finds them.
    private static func specFiles(in folder: String) -> [String] {
        (try? SpecLibrary(searchPaths: [folder], compiler: SpecCompiler(environment: Environment([:]))).files()) ?? []
    }

    /// The SHA-256 of the folder's spec files: each one's path in the folder and the SHA-256
    /// of its bytes, in the library's order. The folder may be anyone's: its files are read
    /// never a device, at most 64 MiB, through a link as the library reads them; one that
    /// cannot be read counts by what is wrong with it.
    package static func digest(of folder: String, reading: (file: String, bytes: [UInt8])? = nil) -> String {
        let root = FileRoot(spec: folder + "/", given: folder)
        // The spec already read is known by where it is, links resolved: its bytes are the
        // file's, whichever way the library read it.
        let known = reading.flatMap { reading in FileRoot.realPath(reading.file).map { ($0, reading.bytes) } }
        var listing = ""
        for file in specFiles(in: folder) {
            let relative = file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
            // Inside the folder, as a spec's files are read; a spec that is a link out of it
            // is read by the library all the same, and so is digested by what it holds.
            let content: String
            do {
                if let (path, bytes) = known, FileRoot.realPath(file) == path {
                    content = hex(SHA256.hash(bytes))
                } else {
                    content = hex(SHA256.hash(try root.read(file)))
                }
            } catch {
                content = FileRoot.specBytes(file).map { hex(SHA256.hash($0)) } ?? error.description
            }
            listing += relative + "\u{0} " + content + "\n"
        }
        return hex(SHA256.hash(Array(listing.utf8)))
    }

    private static func hex(_ digest: [UInt8]) -> String {
        digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
