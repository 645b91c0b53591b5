// The part of OpenQASM 3 (https://openqasm.com/language/) that the IBM path's circuits and the
// programs around them use, as an ANTLR 4 grammar written for this package's tests: the version
// line, includes, gate definitions (calls and gphase in their bodies), qubit and bit declarations,
// gate calls with modifiers on physical ($k), named or indexed qubits with arithmetic parameters,
// measurements (assigned or arrowed), reset and barrier. Anything else is a syntax error here.
grammar Qasm3Subset;

program: version? statement* EOF;
version: 'OPENQASM' (IntegerLiteral | FloatLiteral) ';';

statement
    : include
    | gateDefinition
    | declaration
    | measureAssignment
    | measureArrow
    | reset
    | barrier
    | gateCall
    ;

include: 'include' StringLiteral ';';
gateDefinition: 'gate' Identifier ('(' identifierList? ')')? identifierList '{' (gateCall | gphase)* '}';
gphase: modifier* 'gphase' '(' expression ')' (operand (',' operand)*)? ';';
declaration
    : ('qubit' | 'bit') designator? Identifier ';'
    | ('qreg' | 'creg') Identifier designator? ';'
    ;
designator: '[' expression ']';
measureAssignment: indexedIdentifier '=' 'measure' operand ';';
measureArrow: 'measure' operand ('->' indexedIdentifier)? ';';
reset: 'reset' operand ';';
barrier: 'barrier' (operand (',' operand)*)? ';';
gateCall: modifier* Identifier ('(' expression (',' expression)* ')')? operand (',' operand)* ';';
modifier: ('inv' | 'pow' '(' expression ')' | ('ctrl' | 'negctrl') ('(' expression ')')?) '@';
operand: HardwareQubit | indexedIdentifier;
indexedIdentifier: Identifier designator?;
identifierList: Identifier (',' Identifier)*;

expression
    : '(' expression ')'
    | '-' expression
    | expression ('*' | '/') expression
    | expression ('+' | '-') expression
    | FloatLiteral
    | IntegerLiteral
    | Identifier
    ;

FloatLiteral
    : Digits '.' Digits? Exponent?
    | '.' Digits Exponent?
    | Digits Exponent
    ;
IntegerLiteral: Digits;
HardwareQubit: '$' Digits;
StringLiteral: '"' ~["\r\n]* '"';
Identifier: FirstIdCharacter (FirstIdCharacter | [0-9])*;
fragment FirstIdCharacter: [\p{L}_];
fragment Digits: [0-9]+;
fragment Exponent: [eE] [+-]? Digits;

Whitespace: [ \t\r\n]+ -> skip;
LineComment: '//' ~[\r\n]* -> skip;
BlockComment: '/*' .*? '*/' -> skip;
