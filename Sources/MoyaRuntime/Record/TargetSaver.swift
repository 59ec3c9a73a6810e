import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a target into a spec file, as `call URL --save SERVICE.TARGET` does: the file is
/// read, edited (`TargetEdit`) and compiled again under the lock recordings take, and written
/// whole only when the target compiles; a new file, and its folder, are made when missing.
public enum TargetSaver {
    /// Saves into `file` what `edit` makes of its text (nil when the file does not exist), and
    /// returns the text written. The edited spec must compile its target `target` with
    /// `check`, or nothing is written. Throws what `edit` throws, or a
    /// `SampleRecorder.Failure`.
    public static func save(
        to file: String, target: String, check: EditCheck, edit: (String?) throws -> String
    ) throws -> String {
        let folder = file.lastIndex(of: "/").map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        if !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw SampleRecorder.Failure(
                    message: "cannot make the folder \(folder) to save \(target) into",
                    isSpecProblem: false)
            }
        }
        let lock = try FolderLock(folderOf: file)
        defer { lock.release() }
        let exists = FileManager.default.fileExists(atPath: file)
        var original: String?
        if exists {
            try SampleRecorder.checkWritable(file)
            // Read as a spec is: a regular file, bounded, never a FIFO waited on.
            do {
                original = String(decoding: try FileRoot(spec: file).read(file), as: UTF8.self)
            } catch {
                throw SampleRecorder.Failure(message: "\(file): \(error)", isSpecProblem: false)
            }
        }
        let edited = try edit(original)
        do {
            _ = try check.compile(Array(edited.utf8), file, target, false)
        } catch {
            throw SampleRecorder.Failure(
                message: "the saved spec would not compile (\(error.diagnostics.first?.description ?? "")); "
                    + "nothing was written",
                isSpecProblem: true)
        }
        try SampleRecorder.write(Array(edited.utf8), to: file, like: exists ? file : nil)
        return edited
    }
}
