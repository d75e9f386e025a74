import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Relationship`: makes a relationship property computed, backed by a private peer, initialized through
/// an init accessor so the memberwise initializer still takes the property.
///
/// - `@Relationship(column:)` on `var category: Category?`: the peer is `_category`, a
///   `FetchKit.ToOne<Category>` (whose `Destination: EntityRecord` constraint reports a destination that is
///   no entity), which keeps the related record's key when the record is not loaded.
/// - `@Relationship(inverse:)` on `var todos: [Todo] = []`: the peer is `_todos: [Todo]`.
///
/// Both forms share the accessor role: Swift 6.3 crashes in IRGen when one overload of an attached macro
/// adds accessors and another does not. A property of another shape gets a peer of its own type, so only
/// `@Entity` reports the problem.
public struct RelationshipMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let (name, storage) = storage(of: declaration, attribute: node) else { return [] }
        let wrap = storage.isToOne ? ("FetchKit.ToOne(", ")") : ("", "")
        let read = storage.isToOne ? ".record" : ""
        return [
            """
            @storageRestrictions(initializes: _\(raw: name))
            init(initialValue) {
                _\(raw: name) = \(raw: wrap.0)initialValue\(raw: wrap.1)
            }
            """,
            """
            get {
                _\(raw: name)\(raw: read)
            }
            """,
            """
            set {
                _\(raw: name) = \(raw: wrap.0)newValue\(raw: wrap.1)
            }
            """
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let (name, storage) = storage(of: declaration, attribute: node) else { return [] }
        return ["private var _\(raw: name): \(raw: storage.type)"]
    }

    /// The type of a relationship's storage.
    private struct Storage {
        var type: String
        var isToOne: Bool
    }

    /// The property's name and its storage, for one stored instance `var` with a type annotation.
    private static func storage(
        of declaration: some DeclSyntaxProtocol, attribute: AttributeSyntax
    ) -> (String, Storage)? {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindingSpecifier.text == "var",
            variable.bindings.count == 1, let binding = variable.bindings.first, binding.accessorBlock == nil,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription,
            let type = binding.typeAnnotation?.type,
            !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) })
        else { return nil }
        let isToMany = MacroArguments(attribute).argument("inverse") != nil
        if !isToMany, let destination = TypeShape.wrapped(type) {
            return (name, Storage(type: "FetchKit.ToOne<\(destination.trimmedDescription)>", isToOne: true))
        }
        return (name, Storage(type: type.trimmedDescription, isToOne: false))
    }
}
