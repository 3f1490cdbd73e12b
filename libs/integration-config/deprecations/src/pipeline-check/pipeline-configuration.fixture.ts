/** For specs: a pipeline configuration with one use of every checker rule, plus a second CI_BUILD_REF in the same job and one in another job. */
export const EVERY_RULE = `types: [build, test]
variables:
  DOCKER_IMAGE: registry.example.com/app:latest
  SECRET_DETECTION_COMMIT_FROM: abc123
  DS_EXCLUDED_ANALYZERS: "retire.js"
include:
  - template: Dependency-Scanning.gitlab-ci.yml
build:
  type: build
  script:
    - echo $CI_BUILD_REF
    - echo again $CI_BUILD_REF
  artifacts:
    reports:
      cobertura: coverage.xml
deploy:
  script: echo $CI_BUILD_REF
container_scanning:
  variables:
    DOCKER_USER: me
sast:
  image: $SECURE_ANALYZERS_PREFIX/semgrep:2
  script: x
${'j'.repeat(256)}:
  script: x
bundler-audit-dependency_scanning:
  script: x
starboard:
  vulnerability_report: { namespaces: [default] }
`;
