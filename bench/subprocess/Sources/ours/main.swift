#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The same job as moya-cli's ChildProcess does it: posix_spawn, a pipe, one wait.
var pipeEnds: [Int32] = [-1, -1]
guard pipe(&pipeEnds) == 0 else { exit(1) }
var actions = posix_spawn_file_actions_t()
posix_spawn_file_actions_init(&actions)
posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
let words: [String] = ["/bin/echo", "s3cret"]
let argv = words.map { strdup($0) } + [nil]
var pid = pid_t()
guard posix_spawn(&pid, "/bin/echo", &actions, nil, argv, environ) == 0 else { exit(1) }
close(pipeEnds[1])
var output: [UInt8] = []
var buffer = [UInt8](repeating: 0, count: 16 << 10)
while true {
    let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
    if count <= 0 { break }
    output += buffer[..<count]
}
var status: Int32 = 0
while waitpid(pid, &status, 0) < 0, errno == EINTR {}
print(String(decoding: output, as: UTF8.self), terminator: "")
