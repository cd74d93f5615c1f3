{{/* The chart name, or nameOverride. */}}
{{- define "chronoplane.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Prefix of every resource name: the release name, with the chart name unless it already holds it. */}}
{{- define "chronoplane.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "chronoplane.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object. */}}
{{- define "chronoplane.labels" -}}
helm.sh/chart: {{ include "chronoplane.chart" . }}
{{ include "chronoplane.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: chronoplane
{{- end }}

{{/* What the worker's Service, PDB and ServiceMonitor select. */}}
{{- define "chronoplane.selectorLabels" -}}
app.kubernetes.io/name: {{ include "chronoplane.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "chronoplane.workerSelectorLabels" -}}
{{ include "chronoplane.selectorLabels" . }}
app.kubernetes.io/component: worker
{{- end }}

{{- define "chronoplane.codecServerSelectorLabels" -}}
{{ include "chronoplane.selectorLabels" . }}
app.kubernetes.io/component: codec-server
{{- end }}

{{- define "chronoplane.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "chronoplane.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "chronoplane.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* The payload key's Secret: the user's, or the one this chart creates and keeps. */}}
{{- define "chronoplane.payloadKeySecretName" -}}
{{- default (printf "%s-payload-key" (include "chronoplane.fullname" .)) .Values.payloadKey.existingSecret }}
{{- end }}

{{/* Where the payload key file is mounted, and the file itself. */}}
{{- define "chronoplane.payloadKeyDir" -}}/etc/chronoplane/payload-key{{- end }}

{{/* TLS to Temporal: asked for, or implied by a client certificate or an API key. */}}
{{- define "chronoplane.temporalTls" -}}
{{- if or .Values.temporal.tls.enabled .Values.temporal.tls.clientCertSecret.name .Values.temporal.apiKey.existingSecret }}true{{- end }}
{{- end }}

{{/* The payload key, as a volume and its mount, for every container that encrypts or decrypts. */}}
{{- define "chronoplane.payloadKeyVolume" -}}
- name: payload-key
  secret:
    secretName: {{ include "chronoplane.payloadKeySecretName" . }}
    defaultMode: 0440
    items:
      - key: {{ .Values.payloadKey.key }}
        path: keys
{{- end }}

{{- define "chronoplane.payloadKeyMount" -}}
- name: payload-key
  mountPath: {{ include "chronoplane.payloadKeyDir" . }}
  readOnly: true
{{- end }}
