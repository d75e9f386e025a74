import FetchKitMacros
import Foundation

/// A todo's state, stored as its raw value.
enum Status: String, Codable, Sendable, Hashable {
    case open, waiting, done
}

/// A record declared with every kind of property `@Entity` stores.
@Entity(table: "todo")
struct Todo: Hashable {
    @PrimaryKey var id: Int64?
    var title: String
    var done = false
    @Attribute(column: "position_value", indexed: true) var position: Double
    var notes: String?
    var due: Date?
    var token: UUID
    var payload: Data
    var status: Status
    var previousStatus: Status?
    @Relationship(column: "category_id") var category: Category?
    @Transient var scratch = 0
    let createdBy: String

    static let placeholderTitle = "Untitled"
    var isLate: Bool { due.map { $0 < Date() } ?? false }
}

/// The destination of `Todo.category`, with its inverse.
@Entity(table: "category")
struct Category: Hashable {
    @PrimaryKey var id: Int64?
    var name: String
    @Relationship(inverse: \Todo.category) var todos: [Todo] = []
}

/// A public record with a renamed entity, a text key and a renamed key column.
@Entity("Label", table: "labels")
public struct Tag: Equatable {
    @PrimaryKey(column: "tag_code") public var code: String
    public var rank: Int = -1
}

/// A record whose defaults are constants named by members, and one that is made per record.
@Entity(table: "ticket")
struct Ticket {
    @PrimaryKey var id: Int64?
    var status: Status = .open
    var previousStatus: Status? = Status.waiting
    var opened: Date = Date()
}

/// A record declaring two properties in one declaration.
@Entity(table: "span")
struct Span {
    @PrimaryKey var id: Int64?
    var low, high: Int
}
