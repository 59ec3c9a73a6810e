import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files one command reads, each opened once while it stays as it was: a call's stub
/// scan, its compile and the trust digest all read the same bytes (`FileSystem.contents`). A file asked for again is checked with one `stat` (device,
/// inode, size, modification time) and read anew when it changed, as a spec `--save` or
/// `--record` has just written has. It is the command's for as long as it runs (`current`,
/// set by `MoyaCLI.run` for every command but the servers), and never outlives it.
package final class SpecFiles: Sendable {
    /// The command's files, when it keeps them.
    @TaskLocal package static var current: SpecFiles?

    /// What a file was when it was read.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }

    private let files = Mutex<[String: (identity: Identity, bytes: [UInt8])]>([:])
    private let opened = Mutex<[String: Int]>([:])

    package init() {}

    /// How many times the file at `path` (as it was asked for) was opened and read.
    package func reads(of path: String) -> Int {
        opened.withLock { $0[path] ?? 0 }
    }

    /// Every path read, with its count, for a test's message.
    package var readCounts: [String: Int] { opened.withLock { $0 } }

    /// The bytes read before, when the file is still what it was. Kept by path alone: a
    /// regular file is the same whether links are followed or not (`stat` and `lstat` agree),
    /// and a link read through is not the link itself, which `lstat` tells apart.
    func bytes(_ path: String, followsLinks: Bool) -> [UInt8]? {
        guard let kept = files.withLock({ $0[path] }) else { return nil }
        var info = stat()
        let found = followsLinks ? stat(path, &info) : lstat(path, &info)
        guard found == 0, Identity(info) == kept.identity else { return nil }
        return kept.bytes
    }

    /// Keeps what was read of `path`, whose open file `fstat` described as `info`.
    func keep(_ bytes: [UInt8], of path: String, info: stat) {
        files.withLock { $0[path] = (Identity(info), bytes) }
        opened.withLock { $0[path, default: 0] += 1 }
    }
}
