import Subprocess

// One program run, its stdout read whole: what a `pass` secret costs a call.
let result = try await run(
    .path("/bin/echo"), arguments: ["s3cret"], output: .string(limit: 1 << 20), error: .discarded)
print(result.standardOutput ?? "", terminator: "")
