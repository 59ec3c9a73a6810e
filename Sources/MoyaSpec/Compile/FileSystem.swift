#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few questions about files that spec discovery asks, answered with one `stat` each.
enum FileSystem {
    enum Kind: Equatable {
        case missing, file, directory
        /// Anything else, named in words: "a FIFO", "a device".
        case other(String)
    }

    /// Which file a path reaches, links followed: the same identity means the same file.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    static func kind(_ path: String) -> Kind {
        entry(path).kind
    }

    /// What `path` is, and its identity when it exists.
    static func entry(_ path: String) -> (kind: Kind, identity: Identity?) {
        var info = stat()
        guard stat(path, &info) == 0 else { return (.missing, nil) }
        let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (.file, identity)
        case S_IFDIR: return (.directory, identity)
        case S_IFIFO: return (.other("a FIFO"), identity)
        case S_IFCHR, S_IFBLK: return (.other("a device"), identity)
        case S_IFSOCK: return (.other("a socket"), identity)
        default: return (.other("not a regular file"), identity)
        }
    }

    static func isRegularFile(_ path: String) -> Bool {
        kind(path) == .file
    }
}
