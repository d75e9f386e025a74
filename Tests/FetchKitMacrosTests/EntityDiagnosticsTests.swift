import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@Entity diagnostics")
struct EntityDiagnosticsTests {
    @Test("no @PrimaryKey: at the type's name, with a fix-it that declares one")
    func missingPrimaryKey() {
        assertExpansion(
            """
            @Entity
            struct Note {
                var text: String
            }
            """,
            expandedSource: """
                struct Note {
                    var text: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Entity type 'Note' needs a primary key: mark one stored property @PrimaryKey",
                    line: 2, column: 8, fixIts: [FixItSpec(message: "insert '@PrimaryKey var id: Int64?'")])
            ])
    }

    @Test("two @PrimaryKeys: at the second")
    func duplicatePrimaryKey() {
        assertExpansion(
            """
            @Entity
            struct Note {
                @PrimaryKey var id: Int64?
                @PrimaryKey var code: String
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int64?
                    var code: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'code' is a second @PrimaryKey; an entity has exactly one", line: 4, column: 5)
            ])
    }

    @Test("@Entity on a generic struct")
    func genericType() {
        assertExpansion(
            """
            @Entity
            struct Box<Value> {
                @PrimaryKey var id: Int64?
            }
            """,
            expandedSource: """
                struct Box<Value> {
                    var id: Int64?
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Entity type 'Box' cannot be generic: its table has one set of columns", line: 2,
                    column: 11)
            ])
    }

    @Test("@Entity on a class or an enum")
    func notAStruct() {
        assertExpansion(
            """
            @Entity
            class Note {
                var id: Int64?
            }
            """,
            expandedSource: """
                class Note {
                    var id: Int64?
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@Entity applies to a struct, not to a class", line: 2, column: 1)])
    }

    @Test(
        "properties of types no attribute stores, at their type",
        arguments: [
            ("var pair: (Int, Int)", "'pair' is a tuple", 10),
            ("var action: () -> Void", "'action' is a function", 12),
            ("var handler: (@Sendable (Int) -> Void)?", "'handler' is a function", 13),
            ("var tags: [String]", "'tags' is an array", 10),
            ("var counts: [String: Int]", "'counts' is a dictionary", 12),
            ("var flags: Set<String>", "'flags' is a set", 11),
            ("var names: Array<String>?", "'names' is an array", 11)
        ])
    func unsupportedTypes(declaration: String, start: String, column: Int) {
        assertExpansion(
            """
            @Entity
            struct Note {
                @PrimaryKey var id: Int64?
                \(declaration)
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int64?
                    \(declaration)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: start + ", which no attribute stores; mark it @Transient, or store a value, an optional, "
                        + "or an enum with a raw value",
                    line: 4, column: 5 + column)
            ])
    }

    @Test("a property without a type annotation whose default is not a literal")
    func missingTypeAnnotation() {
        assertExpansion(
            """
            @Entity
            struct Note {
                @PrimaryKey var id: Int64?
                var created = Date()
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int64?
                    var created = Date()
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'created' needs a type annotation: @Entity reads attribute types from the declaration",
                    line: 4, column: 9)
            ])
    }

    @Test("@Relationship(column:) on a type that is not optional, with a fix-it")
    func toOneNotOptional() {
        assertExpansion(
            """
            @Entity
            struct Todo {
                @PrimaryKey var id: Int64?
                @Relationship(column: "category_id") var category: Category
            }
            """,
            expandedSource: """
                struct Todo {
                    var id: Int64?
                    var category: Category {
                        @storageRestrictions(initializes: _category)
                        init(initialValue) {
                            _category = initialValue
                        }
                        get {
                            _category
                        }
                        set {
                            _category = newValue
                        }
                    }

                    private var _category: Category
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "to-one @Relationship 'category' must have an optional record type, such as 'Category?'",
                    line: 4, column: 56, fixIts: [FixItSpec(message: "make the type optional")])
            ])
    }

    @Test("@Relationship(inverse:) on a type that is not an array, or without a default")
    func toManyShapes() {
        assertExpansion(
            """
            @Entity
            struct Category {
                @PrimaryKey var id: Int64?
                @Relationship(inverse: \\Todo.category) var todo: Todo?
                @Relationship(inverse: \\Todo.category) var todos: [Todo]
            }
            """,
            expandedSource: """
                struct Category {
                    var id: Int64?
                    var todo: Todo? {
                        @storageRestrictions(initializes: _todo)
                        init(initialValue) {
                            _todo = initialValue
                        }
                        get {
                            _todo
                        }
                        set {
                            _todo = newValue
                        }
                    }

                    private var _todo: Todo?
                    var todos: [Todo] {
                        @storageRestrictions(initializes: _todos)
                        init(initialValue) {
                            _todos = initialValue
                        }
                        get {
                            _todos
                        }
                        set {
                            _todos = newValue
                        }
                    }

                    private var _todos: [Todo]
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Relationship(inverse:) 'todo' must have an array of records type, such as '[Todo]'",
                    line: 4, column: 54),
                DiagnosticSpec(
                    message: "@Relationship(inverse:) 'todos' needs the default value '= []'", line: 5, column: 48)
            ])
    }

    @Test("@Transient without a default, a lazy property, a let with a default")
    func propertyShapes() {
        assertExpansion(
            """
            @Entity
            struct Note {
                @PrimaryKey var id: Int64?
                @Transient var cache: [String: Int]
                lazy var summary: String = ""
                let kind = "note"
            }
            """,
            expandedSource: """
                struct Note {
                    var id: Int64?
                    var cache: [String: Int]
                    lazy var summary: String = ""
                    let kind = "note"
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Transient 'cache' needs a default value, which fetched records get",
                    line: 4, column: 20),
                DiagnosticSpec(
                    message: "'summary' is lazy; @Entity records cannot have lazy properties", line: 5, column: 5,
                    fixIts: [FixItSpec(message: "remove 'lazy'")]),
                DiagnosticSpec(
                    message: "'let kind' has a default value, so a fetched record cannot set it; make it 'var' or mark "
                        + "it @Transient",
                    line: 6, column: 16, fixIts: [FixItSpec(message: "replace 'let' with 'var'")])
            ])
    }
}
