/** The seed's input JSON Schema (Phase Validation Agent Protocol 1.0), verbatim: the contract `input.ts` enforces. */
export const INPUT_SCHEMA = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "PhaseValidationAgentInput",
  "type": "object",
  "required": [
    "working_directory",
    "changed_files"
  ],
  "additionalProperties": false,
  "properties": {
    "working_directory": {
      "type": "string",
      "description": "Absolute path to the project root directory",
      "minLength": 1,
      "pattern": "^/",
      "examples": [
        "/Users/user/my-project",
        "/home/dev/app"
      ]
    },
    "changed_files": {
      "type": "array",
      "description": "List of changed file paths relative to working_directory",
      "items": {
        "type": "string",
        "minLength": 1
      },
      "examples": [
        [
          "src/api.ts",
          "tests/api.test.ts"
        ],
        [
          "main.py",
          "tests/test_main.py"
        ]
      ]
    },
    "language": {
      "type": "string",
      "description": "Programming language override (auto-detected if not provided)",
      "enum": [
        "javascript",
        "js",
        "typescript",
        "ts",
        "python",
        "py",
        "go",
        "golang",
        "rust",
        "rs",
        "ruby",
        "rb",
        "java"
      ],
      "examples": [
        "javascript",
        "python",
        "go"
      ]
    },
    "format_command": {
      "type": "string",
      "description": "Override formatter command (language default used if not provided)",
      "minLength": 1,
      "examples": [
        "npm run format",
        "black .",
        "cargo fmt"
      ]
    },
    "lint_command": {
      "type": "string",
      "description": "Override linter command (language default used if not provided)",
      "minLength": 1,
      "examples": [
        "npm run lint",
        "ruff check .",
        "golangci-lint run"
      ]
    },
    "build_command": {
      "type": "string",
      "description": "Override build command (language default used if not provided)",
      "minLength": 1,
      "examples": [
        "npm run build",
        "go build ./...",
        "cargo build"
      ]
    },
    "test_command": {
      "type": "string",
      "description": "Override test command (language default used if not provided)",
      "minLength": 1,
      "examples": [
        "npm test",
        "pytest",
        "go test ./..."
      ]
    },
    "max_retries": {
      "type": "integer",
      "description": "Maximum number of retry attempts for fixable issues",
      "minimum": 0,
      "maximum": 10,
      "default": 3,
      "examples": [
        3,
        5,
        1
      ]
    },
    "skip_build": {
      "type": "boolean",
      "description": "Skip the build check entirely",
      "default": false,
      "examples": [
        false,
        true
      ]
    },
    "skip_tests": {
      "type": "boolean",
      "description": "Skip the test check entirely",
      "default": false,
      "examples": [
        false,
        true
      ]
    }
  }
} as const;
