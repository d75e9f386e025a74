/// The values of rows fetched together, in one allocation: row *r* holds the `width` values from `r × width`.
///
/// A fetch of 256 rows of four columns makes one allocation of their 1,024 values instead of 256 arrays, each
/// with its own header: a live row then costs its values and a 16-byte ``Row``.
///
/// `ManagedBuffer` is not `Sendable`, but a block is: its values are written once, while it is made, and only
/// read afterwards (``Row`` holds it `nonisolated(unsafe)` for that reason).
final class RowValues: ManagedBuffer<RowValues.Header, Value> {
    /// What the block knows of its rows.
    struct Header {
        /// The column names its rows share.
        let layout: RowLayout
        /// The number of values per row.
        let width: Int
        /// The number of values stored (initialised).
        var count: Int
    }

    /// A block holding a copy of `values`, rows of `layout.names.count` values each.
    ///
    /// - Complexity: O(*values*).
    static func make(layout: RowLayout, values: some Collection<Value>) -> RowValues {
        let block = unsafeDowncast(
            create(minimumCapacity: values.count) { _ in
                Header(layout: layout, width: layout.names.count, count: 0)
            }, to: RowValues.self)
        block.withUnsafeMutablePointers { header, elements in
            var next = elements
            for value in values {
                next.initialize(to: value)
                next += 1
            }
            header.pointee.count = next - elements
        }
        return block
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.count) }
    }
}
