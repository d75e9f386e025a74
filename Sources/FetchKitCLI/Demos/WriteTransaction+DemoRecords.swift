import FetchKit
import Foundation

extension WriteTransaction {
    /// The todo titled `title`.
    ///
    /// - Throws: ``MissingRecord`` when there is none.
    func todo(titled title: String) throws -> Todo {
        guard let todo = try fetch(FetchRequest<Todo>(predicate: #Predicate { $0.title == title })).first else {
            throw MissingRecord(description: "no todo titled '\(title)'")
        }
        return todo
    }

    /// The category named `name`.
    ///
    /// - Throws: ``MissingRecord`` when there is none.
    func category(named name: String) throws -> Category {
        guard let category = try fetch(FetchRequest<Category>(predicate: #Predicate { $0.name == name })).first
        else {
            throw MissingRecord(description: "no category named '\(name)'")
        }
        return category
    }
}

/// A demo's write found no record of the title or name it gives.
struct MissingRecord: Error, CustomStringConvertible {
    let description: String
}
