import FetchKit
import FetchKitMacros
import Foundation

/// The fetch benchmark's six columns declared with `@Entity`: the macro writes its positional `init(row:)`.
@Entity("Bench", table: "bench")
struct BenchEntityRecord {
    @PrimaryKey var id: Int64
    var name: String
    var score: Double
    var count: Int64
    var flag: Bool
    var created: Date

    /// Every record by key, as the other sides read them.
    static let byID: FetchRequest<BenchEntityRecord> = {
        do {
            return try FetchRequest(sortBy: [SortDescriptor(\.id)])
        } catch {
            preconditionFailure("the key path \\.id stores the primary key: \(error)")
        }
    }()
}
