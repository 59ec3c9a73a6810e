#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few questions about files that spec discovery asks, answered with one `stat` each.
package enum FileSystem {
    /// Makes the folders above `path` that are not there yet, as the user named them, so that a
    /// file can be written at `path` (as curl's `--create-dirs` does); returns the folders made,
    /// the outermost first, for `removeFolders` to take back when the file is not written.
    /// Nil with a reason when a part of the path is not a folder or cannot be made.
    package static func makeFolders(above path: String) -> Result<[String], FolderFailure> {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return .success([]) }
        var missing: [String] = []
        var folder = String(path[..<slash])
        while !folder.isEmpty {
            let found = kind(folder)
            if found == .directory { break }
            guard found == .missing else {
                return .failure(FolderFailure(message: "cannot write \(path): \(folder) is not a folder"))
            }
            missing.insert(folder, at: 0)
            guard let up = folder.lastIndex(of: "/") else { break }
            folder = String(folder[..<up])
        }
        for (index, folder) in missing.enumerated() where mkdir(folder, 0o755) != 0 {
            removeFolders(Array(missing[..<index]))
            return .failure(FolderFailure(message: "cannot make the folder \(folder) for \(path)"))
        }
        return .success(missing)
    }

    /// Removes folders `makeFolders` made, innermost first, each only while it is empty.
    package static func removeFolders(_ folders: [String]) {
        for folder in folders.reversed() { rmdir(folder) }
    }

    /// Why the folders for a file cannot be made.
    package struct FolderFailure: Error, Sendable {
        package var message: String
    }

    package enum Kind: Equatable {
        case missing, file, directory
        /// Anything else, named in words: "a FIFO", "a device".
        case other(String)
    }

    /// Which file a path reaches, links followed: the same identity means the same file.
    package struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    package static func kind(_ path: String) -> Kind {
        entry(path).kind
    }

    /// What `path` is, and its identity when it exists.
    package static func entry(_ path: String) -> (kind: Kind, identity: Identity?) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (.missing, nil) }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (.file, identity)
        case S_IFDIR: return (.directory, identity)
        default: return (.other(describe(notRegular: info.st_mode) ?? "not a regular file"), identity)
        }
    }

    /// What a file of mode `mode` is, in words ("a FIFO", "a device"), when it is not a
    /// regular file; nil for one.
    static func describe(notRegular mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The most a spec file may hold. The largest spec an import has made (Stripe's, 6,000
    /// targets) is under 10 MiB; a file past this is refused before it is read.
    static let specLimit = 64 << 20

    /// Why a file could not be read.
    package enum ReadFailure: Error {
        case unreadable
        /// Not a regular file: what it is instead.
        case notRegular(String)
        case tooLarge(Int)

        /// As a spec file's problem.
        package var message: String {
            switch self {
            case .unreadable: "cannot read the file"
            case .notRegular(let what): "the file is \(what), not a regular file"
            case .tooLarge(let limit): "the file is larger than \(limit >> 20) MiB, the most a spec may be"
            }
        }
    }

    /// The whole contents of the file at `path`, at most `limit` bytes, read with `read(2)`
    /// into an array sized by `fstat`, with no copy. The file is opened without waiting (a FIFO
    /// is never waited on), and without following a link unless `followsLinks`; its type is
    /// checked once open. It is never mapped: a mapping of a file that an editor or another
    /// process cuts short while it is read ends the process with SIGBUS. A file that grows
    /// while it is read is read to its end or its limit.
    /// While a command keeps its files (`SpecFiles.current`), a file read before and not
    /// changed since is not opened again.
    package static func contents(_ path: String, limit: Int = specLimit, followsLinks: Bool = true) throws(ReadFailure)
        -> [UInt8]
    {
        let files = SpecFiles.current
        if let kept = files?.bytes(path, followsLinks: followsLinks) {
            guard kept.count <= limit else { throw .tooLarge(limit) }
            return kept
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followsLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { throw .unreadable }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable }
        if let what = describe(notRegular: info.st_mode) { throw .notRegular(what) }
        guard Int(clamping: info.st_size) <= limit else { throw .tooLarge(limit) }
        guard let bytes = contents(of: descriptor, size: Int(clamping: info.st_size), limit: limit) else {
            throw .unreadable
        }
        guard bytes.count <= limit else { throw .tooLarge(limit) }
        files?.keep(bytes, of: path, info: info)
        return bytes
    }

    /// What is left to read of `descriptor`, whose file `fstat` gave as `size` bytes; at most
    /// one byte past `limit`, which says the file is over it.
    private static func contents(of descriptor: Int32, size: Int, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        // One byte more than the size, so that a full buffer says the file grew.
        var room = min(max(size, 0), limit) + 1
        while true {
            var failed = false
            let part = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                count = 0
                guard let base = buffer.baseAddress else { return }
                while count < buffer.count {
                    let got = read(descriptor, base + count, buffer.count - count)
                    if got > 0 {
                        count += got
                    } else if got == 0 {
                        return
                    } else if errno != EINTR {
                        failed = true
                        return
                    }
                }
            }
            if failed { return nil }
            if bytes.isEmpty { bytes = part } else { bytes += part }
            if part.count < room || bytes.count > limit { return bytes }
            room = 64 << 10
        }
    }

    /// `body` on the whole contents of the spec file at `path`, read as `contents` reads it.
    package static func withContents<Result>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result?
    {
        guard let bytes = try? contents(path) else { return nil }
        return bytes.withUnsafeBufferPointer(body)
    }

    public static func isRegularFile(_ path: String) -> Bool {
        kind(path) == .file
    }
}
