#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder every file a spec names must lie in: its own folder, or the one `--file-root`
/// names. A spec may come from someone else (a repository's `specs/`), so the files it reads
/// (bodies, uploads, samples, schema documents) and writes (downloads, recorded samples) are
/// confined here, links resolved before the check, as Hurl's `--file-root` confines a Hurl
/// file. A path the user gives on the command line is the user's own and is not confined.
public struct FileRoot: Sendable, Hashable {
    /// The folder, absolute, with every link resolved.
    public let directory: String
    /// Whether `--file-root` named it; otherwise it is the spec's folder.
    public let isGiven: Bool

    /// The most a file a spec names is read whole: samples, `data: { file }` and schema
    /// documents. Uploads stream and are not bounded.
    public static let readLimit = 64 << 20

    /// The root of the spec file `file`: `given` when the user named one, else the spec's
    /// folder.
    public init(spec file: String, given: String? = nil) {
        isGiven = given != nil
        let folder: String
        if let given {
            folder = given
        } else if let slash = file.lastIndex(of: "/") {
            folder = slash == file.startIndex ? "/" : String(file[..<slash])
        } else {
            folder = "."
        }
        directory = Self.realPath(folder) ?? folder
    }

    /// Whether `resolved`, a path with its links resolved, lies inside the root.
    public func contains(_ resolved: String) -> Bool {
        directory == "/" || resolved == directory || resolved.hasPrefix(directory + "/")
    }

    /// The existing regular file at `path` (relative paths already made the spec's), links
    /// resolved, when it lies inside the root and is a file that reads as one: not a device,
    /// a FIFO, a socket, or a file of `/proc` or `/sys`.
    public func file(_ path: String) throws(FileRootError) -> String {
        guard let resolved = Self.realPath(path) else { throw FileRootError(.missing, path: path) }
        guard contains(resolved) else { throw FileRootError(.outside(self, resolved), path: path) }
        var info = stat()
        guard stat(resolved, &info) == 0 else { throw FileRootError(.missing, path: path) }
        if let what = FileSystem.describe(notRegular: info.st_mode) {
            throw FileRootError(.notRegular(what), path: path)
        }
        if Self.isPseudo(resolved) { throw FileRootError(.pseudo, path: path) }
        return resolved
    }

    /// The whole contents of the regular file at `path`, confined as `file(_:)` says, at most
    /// `limit` bytes. It is opened without following a link and without waiting, and checked
    /// again once open, so a file swapped for a FIFO or a link in between is refused.
    public func read(_ path: String, limit: Int = readLimit) throws(FileRootError) -> [UInt8] {
        let resolved = try file(path)
        do {
            return try FileSystem.contents(resolved, limit: limit, followsLinks: false)
        } catch {
            switch error {
            case .unreadable: throw FileRootError(.unreadable, path: path)
            case .notRegular(let what): throw FileRootError(.notRegular(what), path: path)
            case .tooLarge(let limit): throw FileRootError(.tooLarge(limit), path: path)
            }
        }
    }

    /// Where a file may be written at `path`: its folder exists and lies inside the root, and
    /// nothing is there but a regular file, which the write replaces. A link there is refused
    /// rather than followed.
    public func destination(_ path: String) throws(FileRootError) -> String {
        var folder = "."
        var name = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
            name = path[path.index(after: slash)...]
        }
        guard !name.isEmpty, name != ".", name != ".." else { throw FileRootError(.notRegular("a folder"), path: path) }
        guard let resolvedFolder = Self.realPath(folder) else { throw FileRootError(.noFolder, path: path) }
        let resolved = (resolvedFolder == "/" ? "" : resolvedFolder) + "/" + name
        guard contains(resolved) else { throw FileRootError(.outside(self, resolved), path: path) }
        var info = stat()
        if lstat(resolved, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK { throw FileRootError(.link, path: path) }
            if let what = FileSystem.describe(notRegular: info.st_mode) {
                throw FileRootError(.notRegular(what), path: path)
            }
        }
        return resolved
    }

    /// A spec file's bytes as the spec library reads them: through a link, wherever it leads,
    /// a regular file of at most 64 MiB, never a FIFO waited on; nil when it cannot be read.
    public static func specBytes(_ path: String) -> [UInt8]? {
        try? FileSystem.contents(path)
    }

    /// `path` with every link resolved; nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Whether `path` (links resolved) is a file of `/proc` or `/sys`, the kernel's views:
    /// their files say they are regular and empty, and read as the process's environment.
    /// The file's device is compared with theirs too, for a view mounted elsewhere.
    private static func isPseudo(_ path: String) -> Bool {
        for mount in ["/proc", "/sys"] {
            if path == mount || path.hasPrefix(mount + "/") { return true }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        return pseudoDevices.contains(UInt64(info.st_dev))
    }

    /// The devices of `/proc` and `/sys`, where they are mounted.
    private static let pseudoDevices: Set<UInt64> = {
        var devices: Set<UInt64> = []
        for mount in ["/proc", "/sys"] {
            var info = stat()
            if stat(mount, &info) == 0 { devices.insert(UInt64(info.st_dev)) }
        }
        return devices
    }()
}

/// A file a spec names that it may not read or write.
public struct FileRootError: Error, Sendable, CustomStringConvertible {
    /// Why the file is refused.
    public enum Reason: Sendable, Equatable {
        /// Nothing is at the path.
        case missing
        /// The folder a file would be written in does not exist.
        case noFolder
        /// The path, links resolved (the second value), lies outside the root.
        case outside(FileRoot, String)
        /// It is not a regular file: what it is instead.
        case notRegular(String)
        /// It is a file of `/proc` or `/sys`.
        case pseudo
        /// It is larger than the limit, in bytes.
        case tooLarge(Int)
        /// A link is where a file would be written.
        case link
        /// It cannot be opened or read.
        case unreadable
    }

    /// Why.
    public var reason: Reason
    /// The path as the spec (or the spec's folder) gives it.
    public var path: String

    public init(_ reason: Reason, path: String) {
        self.reason = reason
        self.path = path
    }

    public var description: String {
        switch reason {
        case .missing: "no file at \(path); paths are relative to the spec file"
        case .noFolder: "no folder for \(path); paths are relative to the spec file"
        case .outside(let root, let resolved):
            "\(path)\(resolved == path ? "" : " (\(resolved))") is outside \(root.directory), "
                + (root.isGiven ? "the --file-root" : "the spec's folder")
                + ", where the files a spec reads and writes must be; --file-root DIR allows another folder"
        case .notRegular(let what): "\(path) is \(what), not a regular file"
        case .pseudo: "\(path) is a file of /proc or /sys, which a spec never reads"
        case .tooLarge(let limit): "\(path) is larger than \(limit >> 20) MiB, the most a spec's file is read"
        case .link: "\(path) is a symbolic link, which a spec's file is never written through"
        case .unreadable: "cannot read \(path)"
        }
    }
}
