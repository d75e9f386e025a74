import Foundation

// Relationships: an optional chain through a to-one relationship, and closures over a to-many one.

extension PredicateExpressions.OptionalFlatMap: FetchPredicateTranslatable {
    /// `$0.category?.name`: the related record's attribute, `category.name`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        guard case .relationship(let key, let destination, toMany: false) = try translation.node(wrapped) else {
            throw PredicateTranslation<R>.unsupported(
                self,
                "chains through something other than a to-one relationship "
                    + "(an optional attribute has no members in SQL)")
        }
        let inner = translation.binding(variable.key, to: PredicateScope(prefix: key.components, type: destination))
        return try inner.node(transform)
    }
}

extension PredicateExpressions.SequenceContainsWhere: FetchPredicateTranslatable {
    /// `$0.todos.contains { $0.priority > 3 }`: `SUBQUERY(todos, $e1, $e1.priority > 3).@count > 0`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        let subquery = try translation.subquery(sequence, variable.key, test, construct: self)
        return .predicate(.comparison(.init(.subquery(subquery), .greaterThan, .value(.integer(0)))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: FetchPredicateTranslatable {
    /// `$0.todos.allSatisfy { $0.done }`: `SUBQUERY(todos, $e1, NOT $e1.done == YES).@count == 0`.
    func fetchPredicateNode<R: Record>(in translation: PredicateTranslation<R>) throws -> PredicateNode {
        var subquery = try translation.subquery(sequence, variable.key, test, construct: self)
        subquery.predicate = .not(subquery.predicate)
        return .predicate(.comparison(.init(.subquery(subquery), .equal, .value(.integer(0)))))
    }
}

extension PredicateTranslation {
    /// The subquery over the to-many relationship `sequence` whose elements, bound to `variable`, pass `test`.
    func subquery(
        _ sequence: Any, _ variable: PredicateExpressions.VariableID, _ test: Any, construct: Any
    ) throws -> FetchPredicate.Subquery {
        guard case .relationship(let key, let destination, toMany: true) = try node(sequence) else {
            throw Self.unsupported(construct, "tests the elements of something other than a to-many relationship")
        }
        let name = "e\(depth + 1)"
        var inner = binding(variable, to: PredicateScope(prefix: ["$" + name], type: destination))
        inner.depth += 1
        return FetchPredicate.Subquery(collection: key, variable: name, predicate: try inner.predicate(test))
    }
}
