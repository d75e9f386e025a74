import Foundation

/// The bytes glibc's allocator has handed out and not taken back (`mallinfo2`: `uordblks + hblkhd`), and
/// those it holds from the system, in use or free (`arena + hblkhd`, over every arena).
struct HeapUsage {
    let inUse: Int
    var obtained = 0

    #if arch(x86_64) && os(Linux)
        /// glibc's `struct mallinfo2 mallinfo2(void)` (ten `size_t`s). On x86-64 System V a struct that large is
        /// returned through a hidden pointer passed as the first argument, so the function can be called as
        /// `void f(struct mallinfo2 *)`; elsewhere memory is only counted from the tree's nodes.
        private static let mallinfo2: (@convention(c) (UnsafeMutableRawPointer) -> Void)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self)
        }()
    #endif

    /// The allocator's figures now; zero where they cannot be read (another system, another architecture).
    static func current() -> HeapUsage {
        #if arch(x86_64) && os(Linux)
            guard let mallinfo2 else { return HeapUsage(inUse: 0) }
            var fields = [Int](repeating: 0, count: 10)
            fields.withUnsafeMutableBytes { bytes in
                if let base = bytes.baseAddress { mallinfo2(base) }
            }
            // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost
            return HeapUsage(inUse: fields[7] + fields[4], obtained: fields[0] + fields[4])
        #else
            return HeapUsage(inUse: 0)
        #endif
    }
}
