import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process's resident memory, read as each platform offers it: `VmRSS` in `/proc/<pid>/status` on Linux,
/// `proc_pid_rusage`'s resident size on macOS.
enum ResidentMemory {
    /// The resident memory of process `pid`, in bytes.
    ///
    /// - Throws: ``BoardServer/Failure`` when it cannot be read (or, on another system, is not read at all).
    static func bytes(of pid: Int32) throws -> Int {
        #if os(Linux)
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { throw BoardServer.Failure(description: "no VmRSS in /proc/\(pid)/status") }
            return kilobytes * 1024
        #elseif canImport(Darwin)
            var info = rusage_info_v2()
            let result = withUnsafeMutablePointer(to: &info) {
                $0.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) { proc_pid_rusage(pid, RUSAGE_INFO_V2, $0) }
            }
            guard result == 0 else {
                throw BoardServer.Failure(description: "proc_pid_rusage(\(pid)) failed: errno \(errno)")
            }
            return Int(info.ri_resident_size)
        #else
            throw BoardServer.Failure(description: "a process's resident memory is read on Linux and macOS only")
        #endif
    }
}
